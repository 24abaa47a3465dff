"""Base maps from a configured XYZ tile server (MAP_TILE_URL)."""
