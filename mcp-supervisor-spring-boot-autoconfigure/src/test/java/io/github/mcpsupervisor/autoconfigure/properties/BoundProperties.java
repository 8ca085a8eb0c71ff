package io.github.mcpsupervisor.autoconfigure.properties;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/**
 * The binding of {@code mcp.*} alone, without the auto-configuration: for the tests of
 * what a server's settings resolve to.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(McpSupervisorProperties.class)
class BoundProperties {

}
