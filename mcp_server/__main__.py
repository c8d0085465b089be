from mcp_server.cli import main

main()
