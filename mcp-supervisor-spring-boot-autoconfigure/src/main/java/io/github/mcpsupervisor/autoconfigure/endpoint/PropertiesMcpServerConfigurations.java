package io.github.mcpsupervisor.autoconfigure.endpoint;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerConfiguration;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerConfigurationDescriptor;
import io.github.mcpsupervisor.autoconfigure.McpServerRegistry;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpTransportType;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of each server as it runs, by name, for the {@code mcp} endpoint:
 * those of {@code mcp.servers} and those added while the application runs.
 */
final class PropertiesMcpServerConfigurations implements Function<String, @Nullable McpServerConfiguration> {

	private final McpServerRegistry registry;

	PropertiesMcpServerConfigurations(McpServerRegistry registry) {
		this.registry = registry;
	}

	@Override
	public @Nullable McpServerConfiguration apply(String name) {
		return this.registry.settings(name)
			.map((server) -> configuration(McpServerSettingsResolver.effective(name, server),
					this.registry.origins(name)))
			.orElse(null);
	}

	private static McpServerConfiguration configuration(McpServerSettings server, Map<String, String> origins) {
		boolean stdio = server.transport() == McpTransportType.STDIO;
		return new McpServerConfiguration(stdio ? server.toStdioDefinition() : null,
				stdio ? null : server.toHttpDefinition(), server.failOnStartupError(), server.required(),
				server.reconnect(), server.call(), server.healthCheck(), origins, stdio ? null : http(server.http()),
				server.toolNames(), server.standby(), server.protocol().value(),
				(server.logLevel() != null) ? server.logLevel().name().toLowerCase(Locale.ROOT) : null,
				new McpServerConfigurationDescriptor.Sampling(server.sampling().maxConcurrent(),
						server.sampling().maxPerMinute(), server.sampling().maxTokens()),
				new McpServerConfigurationDescriptor.Elicitation(server.elicitation().maxConcurrent(),
						server.elicitation().maxPerMinute()),
				server.toolsWhenDown(), server.roots(), server.oauth().isEnabled() ? oauth(server.oauth()) : null);
	}

	private static McpServerConfigurationDescriptor.OAuth oauth(McpSupervisorProperties.OAuth oauth) {
		return new McpServerConfigurationDescriptor.OAuth(oauth.registration(), string(oauth.redirectUri()),
				oauth.clientId(), oauth.clientSecret(), string(oauth.clientMetadataDocument()), oauth.clientName(),
				oauth.scopes(),
				(oauth.grantType() != null) ? oauth.grantType().name().toLowerCase(Locale.ROOT).replace('_', '-')
						: null,
				oauth.issuer(), oauth.isForUsers() ? "user" : null, oauth.applicationRegistration(),
				oauth.isForUsers() ? oauth.withoutUser().name().toLowerCase(Locale.ROOT) : null,
				oauth.isForUsers() ? oauth.linkToModel() : null);
	}

	private static @Nullable String string(@Nullable Object value) {
		return (value != null) ? value.toString() : null;
	}

	private static McpServerConfigurationDescriptor.Http http(McpSupervisorProperties.Http http) {
		return new McpServerConfigurationDescriptor.Http(http.connectTimeout(),
				http.version().name().toLowerCase(Locale.ROOT).replace('_', '-'), http.ssl().bundle(),
				http.proxy().host(), http.proxy().port());
	}

}
