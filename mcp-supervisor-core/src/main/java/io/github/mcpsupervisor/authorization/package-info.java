/**
 * OAuth 2.1 authorization of remote MCP servers on Spring Security's OAuth2 client: the
 * authorizations a person must give, and how the application's web layer completes them.
 */
@NullMarked
package io.github.mcpsupervisor.authorization;

import org.jspecify.annotations.NullMarked;
