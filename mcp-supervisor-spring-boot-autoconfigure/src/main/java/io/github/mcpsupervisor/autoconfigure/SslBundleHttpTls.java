package io.github.mcpsupervisor.autoconfigure;

import javax.net.ssl.SSLParameters;

import io.github.mcpsupervisor.transport.internal.http.HttpTls;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;

/**
 * The TLS of the SSL bundle that a Streamable HTTP server's settings name
 * ({@code http.ssl.bundle}), applied as Spring Boot's own JDK client factory applies a
 * bundle.
 */
final class SslBundleHttpTls implements HttpTls.Resolver {

	private final @Nullable SslBundles bundles;

	/**
	 * Creates the resolver.
	 * @param bundles the application's SSL bundles, or {@code null} when it has none (no
	 * SSL auto-configuration)
	 */
	SslBundleHttpTls(@Nullable SslBundles bundles) {
		this.bundles = bundles;
	}

	@Override
	public HttpTls resolve(String server, String name) {
		if (this.bundles == null) {
			return HttpTls.Resolver.NONE.resolve(server, name);
		}
		SslBundle bundle;
		try {
			bundle = this.bundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw HttpTls.Resolver.refusal(server, name, "no SSL bundle of that name is defined: define it with"
					+ " spring.ssl.bundle.pem." + name + ".* or spring.ssl.bundle.jks." + name + ".*", ex);
		}
		SslOptions options = bundle.getOptions();
		SSLParameters parameters = (options.getCiphers() != null || options.getEnabledProtocols() != null)
				? new SSLParameters(options.getCiphers(), options.getEnabledProtocols()) : null;
		return new HttpTls(bundle.createSslContext(), parameters);
	}

}
