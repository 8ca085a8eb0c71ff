/**
 * Auto-configuration of the OAuth 2.1 authorization of remote MCP servers.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.authorization;

import org.jspecify.annotations.NullMarked;
