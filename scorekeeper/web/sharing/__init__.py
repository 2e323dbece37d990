"""Sharing a game between phones: view and edit links, QR codes, revoking.

The rights themselves are :mod:`scorekeeper.web.access`'s.
"""
