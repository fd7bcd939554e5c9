"""The game server: durable games, one WebSocket per seat, and the web table (``static/``)."""
