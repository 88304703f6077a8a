"""Pure rules engines, one package per hosted game (no Discord, no I/O at play time)."""
