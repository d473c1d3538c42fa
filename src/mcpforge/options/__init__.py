"""Every option of mcpforge (:mod:`.model`) and the configuration files that set them (:mod:`.files`)."""
