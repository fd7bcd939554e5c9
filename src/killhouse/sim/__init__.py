"""Drivers that play games with bots: one game, or many in parallel for a summary."""
