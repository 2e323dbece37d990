"""Deals: the per-contract deal forms, a deal's page with its revisions, and corrections."""
