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
 * over HTTP.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

	@Bean
	FilterRegistrationBean<LoopbackHostFilter> loopbackHostFilter(SampleProperties properties) {
		FilterRegistrationBean<LoopbackHostFilter> registration = new FilterRegistrationBean<>(
				new LoopbackHostFilter(properties.allowedHosts()));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

}
