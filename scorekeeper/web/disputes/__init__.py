"""The dispute desk: card-by-card check, revoke rulings, redeal check and claims."""
