"""Pricing: the catalogue of levels and packages, their prices, discounts and what a level change
gives a device.

Public to other contexts: `model`, `ports` (CatalogueRepository, PricingUnitOfWork), `rules`,
`level_change` and `quotes` (how a batch of devices is priced, which ordering uses to price an
order itself).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "rules", "level_change", "quotes"]
