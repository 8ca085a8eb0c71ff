package io.github.mcpsupervisor.transport.internal.http;

import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A JDK HTTP client that passes its configuration to another one: the base of the views
 * of the shared client that change how requests are sent.
 */
abstract class DelegatingHttpClient extends HttpClient {

	protected final HttpClient delegate;

	DelegatingHttpClient(HttpClient delegate) {
		this.delegate = delegate;
	}

	@Override
	public Optional<CookieHandler> cookieHandler() {
		return this.delegate.cookieHandler();
	}

	@Override
	public Optional<Duration> connectTimeout() {
		return this.delegate.connectTimeout();
	}

	@Override
	public Redirect followRedirects() {
		return this.delegate.followRedirects();
	}

	@Override
	public Optional<ProxySelector> proxy() {
		return this.delegate.proxy();
	}

	@Override
	public SSLContext sslContext() {
		return this.delegate.sslContext();
	}

	@Override
	public SSLParameters sslParameters() {
		return this.delegate.sslParameters();
	}

	@Override
	public Optional<Authenticator> authenticator() {
		return this.delegate.authenticator();
	}

	@Override
	public Version version() {
		return this.delegate.version();
	}

	@Override
	public Optional<Executor> executor() {
		return this.delegate.executor();
	}

}
