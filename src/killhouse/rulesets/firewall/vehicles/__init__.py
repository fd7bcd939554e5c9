"""Digest §17: personal transport and vehicles for the ``firewall`` ruleset (rulings F-140 …).

``catalogue`` reads ``data/vehicles.yaml``; ``build`` prices a vehicle in Vehicle Points and
makes one from a sample or a design; ``model`` holds its state; ``sight`` stamps footprints on
the board and answers who sees what; ``driving``, ``gunnery``, ``damage``, ``crew`` and
``transport`` are the rules; ``orders`` declares the moves on the flow kit.
"""
