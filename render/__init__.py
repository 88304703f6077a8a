"""Pure Pillow renderers: a public view in, an image out."""
