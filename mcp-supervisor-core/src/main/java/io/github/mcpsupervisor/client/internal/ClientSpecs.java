package io.github.mcpsupervisor.client.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Properties;

import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities.RootCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

/**
 * What every generation's client announces, whoever builds it.
 *
 * @since 0.1.0
 */
public final class ClientSpecs {

	/** The name and version of this client, the version being the project's. */
	public static final Implementation CLIENT = load();

	private ClientSpecs() {
	}

	/**
	 * Returns the client info announced to a server: this client's name with the server's
	 * name, as Spring AI's clients do, and the server's name as its title.
	 * @param server the server's name
	 * @return the client info
	 */
	public static Implementation clientInfo(String server) {
		return new Implementation(CLIENT.name() + " - " + server, server, CLIENT.version(), null, null, null);
	}

	/**
	 * Returns the capabilities a generation declares: the given ones, with roots (and
	 * their change notifications) when the session has roots.
	 * @param session the server's client session
	 * @param declared capabilities declared by handlers or customizations, if any
	 * @return the capabilities
	 */
	public static ClientCapabilities capabilities(McpServerSession session, @Nullable ClientCapabilities declared) {
		RootCapabilities roots = (declared != null) ? declared.roots() : null;
		if (roots == null && !session.roots().isEmpty()) {
			roots = new RootCapabilities(true);
		}
		if (declared == null) {
			return new ClientCapabilities(null, roots, null, null);
		}
		return new ClientCapabilities(declared.experimental(), roots, declared.sampling(), declared.elicitation());
	}

	private static Implementation load() {
		try {
			Properties properties = PropertiesLoaderUtils
				.loadProperties(new ClassPathResource("client.properties", ClientSpecs.class));
			return new Implementation(properties.getProperty("name"), null, properties.getProperty("version"), null,
					null, null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the MCP client's name and version", ex);
		}
	}

}
