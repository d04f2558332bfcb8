"""Search providers for `search` sources: one module each, behind `base.SearchProvider`."""
