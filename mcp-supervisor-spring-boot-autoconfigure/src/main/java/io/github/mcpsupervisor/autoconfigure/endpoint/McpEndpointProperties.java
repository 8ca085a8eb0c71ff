package io.github.mcpsupervisor.autoconfigure.endpoint;

import java.util.Set;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the {@code mcp} endpoint ({@code management.endpoint.mcp}).
 *
 * @param showValues When to show configuration values that may be secret (environment
 * variables and headers of the servers); sanitized otherwise
 * @param roles Roles allowed to see them when show-values is when-authorized; any
 * authenticated user when empty
 * @since 0.1.0
 */
@ConfigurationProperties("management.endpoint.mcp")
public record McpEndpointProperties(@DefaultValue("never") Show showValues, @DefaultValue Set<String> roles) {

}
