"""Printed score sheets (PDF): content, chart, layout, the render process and routes."""
