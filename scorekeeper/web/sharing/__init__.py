"""Sharing a game between phones: view and edit links, QR codes, edit rights, revoking."""
