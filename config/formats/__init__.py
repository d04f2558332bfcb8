"""Our date formats, one short and one long per language (FORMAT_MODULE_PATH); config/moments.py
is what shows them. Django's own formats fill in everything not named here."""
