package io.github.mcpsupervisor.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Supervises the demo MCP server, in revision 2025-11-25 over stdio and in 2026-07-28
 * over stdio and stateless Streamable HTTP, and exposes its tools, resources and prompts
 * over HTTP. In the {@code replicas} profile, it also supervises an OAuth-protected demo
 * server, authorized once for every instance on one database.
 *
 * <p>
 * Spring Boot's web security and authorization server stay out: they come onto the class
 * path with the demo authorization server, which runs in a Spring application of its own,
 * and this loopback sample has no web security (see docs/security.md).
 */
@SpringBootApplication(excludeName = { "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
		"org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerAutoConfiguration",
		"org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerJwtAutoConfiguration" })
@EnableConfigurationProperties(SampleProperties.class)
public class SampleApplication {

	private static final String H2_BIND_ADDRESS = "h2.bindAddress";

	public static void main(String[] args) {
		// H2's automatic mixed mode (AUTO_SERVER, in the replicas profile) serves the
		// database file to the other instances on loopback only, not on every interface
		if (System.getProperty(H2_BIND_ADDRESS) == null) {
			System.setProperty(H2_BIND_ADDRESS, "127.0.0.1");
		}
		SpringApplication.run(SampleApplication.class, args);
	}

	// Whether a Spring application is this sample, rather than one it runs in its JVM
	// (the demo authorization server's), which sees the same listeners
	static boolean isSample(SpringApplication application) {
		return application.getAllSources().contains(SampleApplication.class);
	}

	@Bean
	FilterRegistrationBean<LoopbackHostFilter> loopbackHostFilter(SampleProperties properties) {
		FilterRegistrationBean<LoopbackHostFilter> registration = new FilterRegistrationBean<>(
				new LoopbackHostFilter(properties.allowedHosts()));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

}
