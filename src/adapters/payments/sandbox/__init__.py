"""Local sandboxes of the payment providers: one process (`coldchain payment-sandbox`) that speaks
the subset of each provider's HTTP API our adapters call, with the provider's own signing, and a
payer page with Pay and Fail buttons that stands in for the payer's phone or wallet."""
