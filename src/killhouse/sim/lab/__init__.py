"""The balance lab: many bot games of one scenario, with intervals, pictures and sweeps.

``stats`` (Wilson intervals), ``records`` (per-game rows and the probe that fills them),
``run`` (batches on worker processes or Ray), ``sweep`` (scenario variants by path),
``plots`` (PNG pictures) and ``report`` (JSON, CSV and report.html).
"""
