"""REST routers, one module per resource."""
