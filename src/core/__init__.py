"""The product's rules. Pure Python: no web framework, ORM or SDK is imported here."""
