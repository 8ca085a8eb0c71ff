package io.github.mcpsupervisor.autoconfigure;

import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.Environment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.util.ClassUtils;

/**
 * Fails the start, before any bean and so any MCP server is created, when Spring AI's MCP
 * client auto-configuration is active with connections of its own: its servers would run
 * unsupervised, and a server configured in both places would run twice.
 */
class SpringAiMcpClientCheck implements BeanFactoryPostProcessor, PriorityOrdered {

	/** Spring AI's MCP client auto-configuration, not a dependency of this module. */
	static final String SPRING_AI_MCP_CLIENT = "org.springframework.ai.mcp.client.common.autoconfigure.McpClientAutoConfiguration";

	private static final String PREFIX = "spring.ai.mcp.client.";

	private static final String STREAMABLE_HTTP = PREFIX + "streamable-http.connections";

	/** The endpoint of a streamable-http connection that sets none, as in Spring AI. */
	private static final String DEFAULT_ENDPOINT = "/mcp";

	private static final List<String> CONNECTIONS = List.of(PREFIX + "stdio.connections", STREAMABLE_HTTP,
			PREFIX + "sse.connections");

	private static final String SERVERS_CONFIGURATION = PREFIX + "stdio.servers-configuration";

	private final Environment environment;

	SpringAiMcpClientCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		check(this.environment, beanFactory.getBeanClassLoader());
	}

	static void check(Environment environment, @Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(SPRING_AI_MCP_CLIENT, classLoader)
				|| !Binder.get(environment).bind(PREFIX + "enabled", Boolean.class).orElse(true)) {
			return;
		}
		Map<String, List<String>> connections = new TreeMap<>();
		for (String property : CONNECTIONS) {
			Set<String> names = keys(environment, property);
			if (!names.isEmpty()) {
				connections.put(property, List.copyOf(names));
			}
		}
		Binder.get(environment)
			.bind(SERVERS_CONFIGURATION, String.class)
			.ifBound((location) -> connections.put(SERVERS_CONFIGURATION + " (" + location + ")",
					serversConfiguration(location, classLoader)));
		if (connections.isEmpty()) {
			return;
		}
		Set<String> duplicates = new TreeSet<>(keys(environment, "mcp.servers"));
		duplicates.retainAll(connections.values().stream().flatMap(List::stream).toList());
		throw new SpringAiMcpClientConflictException(connections, duplicates, streamableHttpUrls(environment));
	}

	// the URL each streamable-http connection sends to, masked: Spring AI resolves its
	// endpoint (/mcp when unset) against its url, as the MCP SDK's transport does
	private static Map<String, String> streamableHttpUrls(Environment environment) {
		Map<String, String> urls = new TreeMap<>();
		Binder binder = Binder.get(environment);
		for (String name : keys(environment, STREAMABLE_HTTP)) {
			String prefix = STREAMABLE_HTTP + "." + name + ".";
			binder.bind(prefix + "url", String.class).ifBound((url) -> {
				String endpoint = binder.bind(prefix + "endpoint", String.class).orElse(DEFAULT_ENDPOINT);
				try {
					urls.put(name, ConfigurationSanitizer.maskUrl(URI.create(url).resolve(endpoint)));
				}
				catch (IllegalArgumentException ex) {
					// not a URL: the connection is named, its URL is not shown
				}
			});
		}
		return urls;
	}

	// the keys of a map property, from every property source
	private static Set<String> keys(Environment environment, String property) {
		ConfigurationPropertyName root = ConfigurationPropertyName.of(property);
		Set<String> keys = new TreeSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream()
					.filter(root::isAncestorOf)
					.forEach((name) -> keys.add(name.getElement(root.getNumberOfElements(), Form.ORIGINAL)));
			}
		}
		return keys;
	}

	// the names of the servers of a Claude Desktop file, read as Spring AI does (the
	// entries of its first top-level key); none when it cannot be read
	private static List<String> serversConfiguration(String location, @Nullable ClassLoader classLoader) {
		Resource resource = new DefaultResourceLoader(classLoader).getResource(location);
		try (InputStream in = resource.getInputStream()) {
			Map<String, Map<String, Object>> file = JsonMapper.shared().readValue(in, new TypeReference<>() {
			});
			return (file.isEmpty()) ? List.of()
					: new ArrayList<>(new TreeSet<>(file.values().iterator().next().keySet()));
		}
		catch (Exception ex) {
			return List.of();
		}
	}

}
