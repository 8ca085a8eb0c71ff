package io.github.mcpsupervisor.autoconfigure;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertiesBinder;
import io.github.mcpsupervisor.internal.ServerText;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ResourceLoader;

/**
 * Applies the servers' configuration as it is now to the running servers: the files of
 * {@code mcp.servers-configuration} read again, {@code mcp.*} bound and validated again,
 * and the difference applied through the {@link McpServerRegistry}. A configuration that
 * is refused changes nothing, the environment included.
 */
final class McpServersReload {

	private static final Log logger = LogFactory.getLog(McpServersReload.class);

	private final McpServerRegistry registry;

	private final ConfigurableEnvironment environment;

	private final ResourceLoader resources;

	private final McpPropertiesBinder binder = new McpPropertiesBinder();

	McpServersReload(McpServerRegistry registry, ConfigurableEnvironment environment, ResourceLoader resources) {
		this.registry = registry;
		this.environment = environment;
		this.resources = resources;
	}

	/**
	 * Applies the configuration as it is now.
	 * @param source what changed, for the log
	 * @return whether it was applied
	 */
	boolean apply(String source) {
		synchronized (this.registry) {
			Runnable restore = () -> {
			};
			McpSupervisorProperties properties;
			try {
				restore = McpPropertiesBinder.readServersFiles(this.environment, this.resources);
				properties = this.binder.bind(this.environment);
			}
			catch (RuntimeException ex) {
				// described while the environment holds what is refused, as a start would
				String refusal = McpPropertiesBinder.describe(ex, this.environment);
				restore.run();
				logger.error("The MCP servers' configuration changed by " + ServerText.forLog(source)
						+ " is refused, and the servers are left as they run: " + refusal);
				return false;
			}
			int changes = this.registry.apply(properties, source);
			logger.info("The MCP servers' configuration changed by " + source + " is applied: " + changes
					+ ((changes == 1) ? " server" : " servers") + " added, replaced or removed");
			return true;
		}
	}

}
