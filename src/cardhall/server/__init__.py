"""The FastAPI app: REST routers, the WebSocket endpoint and the table runtime."""
