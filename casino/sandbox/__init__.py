"""The sandbox (test mode): operators whose API keys see only sandbox tables, which deal
themselves and take play money, so an integrator can run the whole flow alone.

A sandbox operator and a sandbox table are ordinary rows marked by a row of this app
(``SandboxOperator``, ``SandboxTable``): the scoping selectors of tables filter on the marker
(``sandbox`` reverse relation), so a live key never sees a sandbox table or round and a sandbox
key never sees a live one. Money is kept apart by its currency: sandbox wallets and tables
hold play money only (``casino.money.PLAY_MONEY``, ISO 4217's XTS code reserved for tests),
and live operators cannot open a wallet in it, so every ledger account, report and accounting
line of the sandbox is an XTS line, never mixed into a real currency's totals.
"""
