package io.github.mcpsupervisor.autoconfigure;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;

/**
 * Applies a change of the environment that Spring Cloud announces (an
 * {@link EnvironmentChangeEvent}, e.g. after {@code /actuator/refresh}) to the servers,
 * as a change of the servers' files is applied, when one of its keys is an {@code mcp.*}
 * property in any of its relaxed spellings.
 */
final class McpServersRefreshListener implements ApplicationListener<EnvironmentChangeEvent> {

	private final McpServersReload reload;

	McpServersRefreshListener(McpServersReload reload) {
		this.reload = reload;
	}

	@Override
	public void onApplicationEvent(EnvironmentChangeEvent event) {
		Set<String> keys = new TreeSet<>();
		for (String key : event.getKeys()) {
			if (isMcpProperty(key)) {
				keys.add(key);
			}
		}
		if (!keys.isEmpty()) {
			this.reload.apply("the refresh of the environment (" + String.join(", ", keys) + ")");
		}
	}

	// mcp.servers.one.command, mcp.serversConfiguration, MCP_SERVERS_ONE_COMMAND,
	// mcp[...]
	static boolean isMcpProperty(String key) {
		String name = key.toLowerCase(Locale.ROOT);
		return name.equals("mcp") || name.startsWith("mcp.") || name.startsWith("mcp_") || name.startsWith("mcp[");
	}

}
