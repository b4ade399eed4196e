"""Signals teams sends for the layers above it. webhook_delivery_attempted: after each try
of a webhook delivery, with kwargs `delivery` and `outcome` (teams.webhooks.Outcome); ops
counts them."""

from django.dispatch import Signal

webhook_delivery_attempted = Signal()
