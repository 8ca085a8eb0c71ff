package io.github.mcpsupervisor.conformance;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The conformance suite's client: {@code java -jar mcp-supervisor-conformance.jar <url>},
 * the URL of the scenario's server last, as the suite appends it.
 *
 * @since 0.1.0
 */
@SpringBootApplication
public class ConformanceClientApplication {

	/**
	 * Runs the scenario named by {@code MCP_CONFORMANCE_SCENARIO} against the server
	 * whose URL is the last argument, then exits: 0 when every step succeeded.
	 * @param args the arguments, the server's URL last
	 */
	public static void main(String[] args) {
		if (args.length == 0) {
			System.err.println("usage: java -jar mcp-supervisor-conformance.jar <server url>");
			System.exit(2);
		}
		SpringApplication application = new SpringApplication(ConformanceClientApplication.class);
		Map<String, Object> defaults = new LinkedHashMap<>(
				AuthorizationScenario.properties(System.getenv().getOrDefault("MCP_CONFORMANCE_SCENARIO", ""),
						System.getenv("MCP_CONFORMANCE_CONTEXT"), URI.create(args[args.length - 1])));
		defaults.put("conformance.url", args[args.length - 1]);
		application.setDefaultProperties(defaults);
		System.exit(SpringApplication.exit(application.run(args)));
	}

}
