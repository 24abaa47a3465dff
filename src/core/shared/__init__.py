"""What every context shares: the Transaction protocol, errors, clock, money, edition, paging and
messages. It imports no context (the import-linter contract "core.shared imports no context").
"""
