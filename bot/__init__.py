"""Dingir: Mesopotamian board games for play-by-post Discord communities."""
