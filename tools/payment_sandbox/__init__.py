"""Local sandboxes of the payment providers: one process (`coldchain payment-sandbox`) that speaks
the subset of each provider's HTTP API our adapters call, with the provider's own signing, and a
payer page with Pay and Fail buttons that stands in for the payer's phone or wallet.

A development and test tool, not the product: it lives outside src/ and the wheel, the console
serves it only outside production (entrypoints/local_sandbox.py), and it reads the console's
development credentials (adapters/payments/development_credentials.py), never the other way round."""
