package io.github.mcpsupervisor.transport.internal.http;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import org.jspecify.annotations.Nullable;

/**
 * The TLS of the HTTP clients whose settings name a TLS configuration: the SSL context,
 * and the ciphers and protocols it is limited to, if any.
 *
 * @param context the SSL context
 * @param parameters the ciphers and protocols, or {@code null} for the context's own
 * @since 0.1.0
 */
public record HttpTls(SSLContext context, @Nullable SSLParameters parameters) {

	/**
	 * Finds the TLS configuration that a server's settings name: in an application,
	 * Spring Boot's SSL bundle of that name.
	 *
	 * @since 0.1.0
	 */
	@FunctionalInterface
	public interface Resolver {

		/**
		 * Refuses every name: no TLS configuration is known.
		 */
		Resolver NONE = (server, name) -> {
			throw refusal(server, name, "the application has no SSL bundles (Spring Boot's SslAutoConfiguration)",
					null);
		};

		/**
		 * Returns the refusal of the TLS configuration a server's settings name.
		 * @param server the server's name
		 * @param name the configuration's name
		 * @param why why it is refused
		 * @param cause the failure that refused it, if any
		 * @return the refusal, naming the server, the configuration and its properties
		 */
		static IllegalStateException refusal(String server, String name, String why, @Nullable Throwable cause) {
			return new IllegalStateException("MCP server '" + server + "' names SSL bundle '" + name + "' (mcp.servers."
					+ server + ".http.ssl.bundle or mcp.defaults.http.ssl.bundle), but " + why, cause);
		}

		/**
		 * Returns the TLS of the configuration a server's settings name.
		 * @param server the server's name, as a refusal names it
		 * @param name the configuration's name
		 * @return its TLS
		 * @throws IllegalStateException if no configuration of that name is known
		 */
		HttpTls resolve(String server, String name);

	}

}
