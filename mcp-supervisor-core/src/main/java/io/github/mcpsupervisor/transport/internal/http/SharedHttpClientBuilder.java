package io.github.mcpsupervisor.transport.internal.http;

import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * Hands a server's one {@link HttpClient} to the SDK's transport builder, which builds a
 * client of its own for every transport otherwise (and each JDK client keeps a selector
 * thread until it is garbage collected). The client is configured once, where it is
 * created: the settings the SDK applies here are ignored.
 */
final class SharedHttpClientBuilder implements HttpClient.Builder {

	private final HttpClient client;

	SharedHttpClientBuilder(HttpClient client) {
		this.client = client;
	}

	@Override
	public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
		return this;
	}

	@Override
	public HttpClient.Builder connectTimeout(Duration duration) {
		return this;
	}

	@Override
	public HttpClient.Builder sslContext(SSLContext sslContext) {
		return this;
	}

	@Override
	public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
		return this;
	}

	@Override
	public HttpClient.Builder executor(Executor executor) {
		return this;
	}

	@Override
	public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
		return this;
	}

	@Override
	public HttpClient.Builder version(HttpClient.Version version) {
		return this;
	}

	@Override
	public HttpClient.Builder priority(int priority) {
		return this;
	}

	@Override
	public HttpClient.Builder proxy(ProxySelector proxySelector) {
		return this;
	}

	@Override
	public HttpClient.Builder authenticator(Authenticator authenticator) {
		return this;
	}

	@Override
	public HttpClient build() {
		return this.client;
	}

}
