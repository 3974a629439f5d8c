"""Figure scripts: one module per figure (compute + plot) and a CLI."""
