"""Watches that notify by themselves: notifiers per watch and how often a watched list is
checked."""
