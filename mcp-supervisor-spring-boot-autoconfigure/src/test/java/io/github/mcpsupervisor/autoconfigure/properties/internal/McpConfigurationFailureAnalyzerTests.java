package io.github.mcpsupervisor.autoconfigure.properties.internal;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Invalid {@code mcp.*} configuration is reported in the user's words: the property as
 * written, its value as written, where it was written and the rule it breaks.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpConfigurationFailureAnalyzerTests {

	@Test
	void runWhenADelayBreaksARuleOfTwoPropertiesShouldReportItAsWrittenInTheYamlFile(CapturedOutput output) {
		run("--spring.config.name=mcp-bad-delay");
		assertThat(output).contains("Invalid MCP supervisor configuration")
			.contains("Property: mcp.servers.files.reconnect.initial-delay")
			.contains("Value: 40s")
			.contains("Origin: class path resource [mcp-bad-delay.yml]")
			.contains("mcp-bad-delay.yml] - 6:24")
			.contains("Rule: must not exceed max-delay (30000 ms)")
			.doesNotContain("initialDelay")
			.doesNotContain("PT40S");
	}

	@Test
	void runWhenAValueBreaksAConstraintShouldReportItAsWrittenOnTheCommandLine(CapturedOutput output) {
		run("--mcp.servers.files.command=/nonexistent/mcp-server",
				"--mcp.servers.files.health-check.failure-threshold=0");
		assertThat(output).contains("Property: mcp.servers.files.health-check.failure-threshold")
			.contains("Value: 0")
			.contains("Origin: \"mcp.servers.files.health-check.failure-threshold\" from property source "
					+ "\"commandLineArgs\"")
			.contains("Rule: must be greater than or equal to 1")
			.doesNotContain("failureThreshold");
	}

	@Test
	void runWhenARequiredPropertyIsMissingShouldSaySoAtItsName(CapturedOutput output) {
		run("--mcp.servers.files.args=-y");
		assertThat(output).contains("Property: mcp.servers.files.command")
			.contains("Value: not set")
			.contains("Rule: is required when transport is stdio");
	}

	@Test
	void runWhenAnEnumValueCannotBeConvertedShouldListTheValuesAsWritten(CapturedOutput output) {
		run("--mcp.servers.files.command=/nonexistent/mcp-server", "--mcp.servers.files.call.retry=sometimes");
		assertThat(output).contains("Property: mcp.servers.files.call.retry")
			.contains("Value: sometimes")
			.contains("Origin: \"mcp.servers.files.call.retry\" from property source \"commandLineArgs\"")
			.contains("Rule: must be one of never, safe, always");
	}

	@Test
	void runWhenADurationCannotBeConvertedShouldGiveTheFormat(CapturedOutput output) {
		run("--spring.config.name=mcp-bad-duration");
		assertThat(output).contains("Property: mcp.defaults.request-timeout")
			.contains("Value: soon")
			.contains("Origin: class path resource [mcp-bad-duration.properties]")
			.contains("mcp-bad-duration.properties] - 2:30")
			.contains("Rule: must be a duration such as 500ms, 20s or 1m");
	}

	@Test
	void runWhenAKeyIsUnknownShouldNameItAndWhereItWasWritten(CapturedOutput output) {
		run("--spring.config.name=mcp-unknown-key");
		assertThat(output).contains("Property: mcp.servers.files.comand")
			.contains("Value: npx")
			.contains("Origin: class path resource [mcp-unknown-key.properties]")
			.contains("mcp-unknown-key.properties] - 2:26")
			.contains("Rule: is not a known property")
			.contains("mcp.servers.<name>.<property>")
			.contains("The configuration reference of mcp-supervisor (docs/configuration.md) describes every property");
	}

	@Test
	void runWhenARejectedUrlCarriesAKeyShouldMaskIt(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http",
				"--mcp.servers.remote.url=htp://mcp.example.com/mcp?api_key=SECRET-KEY-1");
		assertThat(output).contains("Property: mcp.servers.remote.url")
			.contains("Value: htp://mcp.example.com/mcp?api_key=******")
			.contains("Rule: must be an absolute http or https URL")
			.doesNotContain("SECRET-KEY-1");
	}

	@Test
	void runWhenAUrlPathStartsWithTwoSlashesShouldSayWhy(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http",
				"--mcp.servers.remote.url=http://127.0.0.1:8080//127.0.0.1:9090/mcp?api_key=SECRET-KEY-2");
		assertThat(output).contains("Property: mcp.servers.remote.url")
			.contains("Value: http://127.0.0.1:8080//127.0.0.1:9090/mcp?api_key=******")
			.contains("Rule: must not have a path that starts with //: what follows reads as another host")
			.doesNotContain("SECRET-KEY-2");
	}

	@Test
	void runWhenAUrlCarriesUserInformationShouldPointToTheHeadersAndMaskIt(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http",
				"--mcp.servers.remote.url=http://user:PASSWORD-3@127.0.0.1:8080/mcp");
		assertThat(output).contains("Property: mcp.servers.remote.url")
			.contains("Value: http://******@127.0.0.1:8080/mcp")
			.contains("Rule: must not carry user information (user:password@), which the HTTP client never sends: "
					+ "give the credentials in headers instead, e.g. headers.Authorization=Basic")
			.doesNotContain("PASSWORD-3");
	}

	@Test
	void runWhenAnOAuthServerAlsoHasAnAuthorizationHeaderShouldRefuseTheHeader(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.oauth.registration=remote",
				"--mcp.servers.remote.headers.authorization=Bearer SECRET-TOKEN-9");
		assertThat(output).contains("Property: mcp.servers.remote.headers")
			.contains("Rule: has an Authorization header, and oauth.registration sets the server's token")
			.doesNotContain("SECRET-TOKEN-9");
	}

	@Test
	void runWhenAStdioServerHasAnOAuthRegistrationShouldRefuseIt(CapturedOutput output) {
		run("--mcp.servers.files.command=node", "--mcp.servers.files.oauth.registration=files");
		assertThat(output).contains("Property: mcp.servers.files.oauth.registration")
			.contains("Rule: authorizes streamable-http servers only");
	}

	@Test
	void runWhenAHeaderValueEndsInALineBreakShouldNameTheHeaderButNotShowItsValue(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.headers.Authorization=Bearer SECRET-TOKEN-4\n");
		assertThat(output).contains("Property: mcp.servers.remote.headers")
			.contains("Rule: the value of header 'Authorization' contains a line break or another control character")
			.doesNotContain("SECRET-TOKEN-4");
	}

	@ParameterizedTest(name = "U+{0}")
	@ValueSource(strings = { "0419", "1F511", "2028" })
	void runWhenAHeaderValueHasACharacterAboveLatin1ShouldNameTheHeaderButNotShowItsValue(String codePoint,
			CapturedOutput output) {
		String character = Character.toString(Integer.parseInt(codePoint, 16));
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.headers.X-Api-Key=SECRET-TOKEN-6" + character);
		assertThat(output).contains("Property: mcp.servers.remote.headers")
			.contains("Rule: the value of header 'X-Api-Key' has a character above U+00FF, which HTTP headers "
					+ "cannot carry")
			.doesNotContain("SECRET-TOKEN-6");
	}

	@Test
	void runWhenAHeaderValueHasAC1ControlCharacterShouldNameTheHeaderButNotShowItsValue(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.headers.X-Api-Key=SECRET-TOKEN-7\u0085");
		assertThat(output).contains("Property: mcp.servers.remote.headers")
			.contains("Rule: the value of header 'X-Api-Key' contains a line break or another control character")
			.doesNotContain("SECRET-TOKEN-7");
	}

	@Test
	void runWhenAHeaderValueEndsInWhitespaceShouldNameTheHeaderButNotShowItsValue(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.headers.X-Api-Key=SECRET-TOKEN-5 ");
		assertThat(output).contains("Property: mcp.servers.remote.headers")
			.contains("Rule: the value of header 'X-Api-Key' starts or ends with whitespace")
			.doesNotContain("SECRET-TOKEN-5");
	}

	@Test
	void runWhenAHeaderNameIsNotATokenShouldSaySo(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.headers[X Api(Key)]=value");
		assertThat(output).contains("Rule: header name 'X Api(Key)' is not an HTTP token");
	}

	@Test
	void runWhenAHeaderIsOneTheHttpClientSetsShouldSaySo(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.headers.Host=example.org");
		assertThat(output).contains("Rule: header 'Host' is set by the HTTP client itself and cannot be configured");
	}

	@Test
	void runWhenAStdioServerHasAUrlAndHeadersShouldRefuseThem(CapturedOutput output) {
		run("--mcp.servers.files.command=node", "--mcp.servers.files.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.files.headers.X-Api-Key=SECRET-TOKEN-10");
		assertThat(output).contains("Property: mcp.servers.files.url")
			.contains("Value: http://127.0.0.1:8080/mcp")
			.contains("Origin: \"mcp.servers.files.url\" from property source \"commandLineArgs\"")
			.contains("Property: mcp.servers.files.headers")
			.contains("Rule: is a setting of streamable-http servers, and this server's transport is stdio")
			.doesNotContain("SECRET-TOKEN-10");
	}

	@Test
	void runWhenAStdioServerHasHttpClientSettingsShouldRefuseThem(CapturedOutput output) {
		run("--mcp.servers.files.command=node", "--mcp.servers.files.http.connect-timeout=3s");
		assertThat(output).contains("Property: mcp.servers.files.http")
			.contains("Rule: is a setting of streamable-http servers, and this server's transport is stdio");
	}

	@Test
	void runWhenAStreamableHttpServerHasStdioSettingsShouldRefuseEachOfThem(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=http://127.0.0.1:8080/mcp",
				"--mcp.servers.remote.command=node", "--mcp.servers.remote.args=server.js",
				"--mcp.servers.remote.env.TOKEN=SECRET-TOKEN-11", "--mcp.servers.remote.working-directory=/srv",
				"--mcp.servers.remote.inherit-env=AWS_*", "--mcp.servers.remote.termination-grace-period=5s");
		assertThat(output).contains("Property: mcp.servers.remote.command")
			.contains("Property: mcp.servers.remote.args")
			.contains("Property: mcp.servers.remote.env")
			.contains("Property: mcp.servers.remote.working-directory")
			.contains("Property: mcp.servers.remote.inherit-env")
			.contains("Property: mcp.servers.remote.termination-grace-period")
			.contains("Rule: is a setting of stdio servers, and this server's transport is streamable-http")
			.doesNotContain("SECRET-TOKEN-11");
	}

	@Test
	void runWhenTheDefaultsSetStdioSettingsShouldNotRefuseThemForAStreamableHttpServer(CapturedOutput output) {
		run("--mcp.servers.remote.transport=streamable-http", "--mcp.servers.remote.url=htp://127.0.0.1:8080/mcp",
				"--mcp.defaults.inherit-env=AWS_*", "--mcp.defaults.termination-grace-period=5s");
		assertThat(output).contains("Rule: must be an absolute http or https URL")
			.doesNotContain("is a setting of stdio servers");
	}

	@Test
	void runWhenTheDefaultsSetASettingOfEachServerShouldNameItWithoutItsValue(CapturedOutput output) {
		run("--mcp.servers.demo.command=npx", "--mcp.defaults.env.TOKEN=SECRET-KEY-3",
				"--mcp.defaults.url=https://mcp.example.com/mcp?api_key=SECRET-KEY-4");
		assertThat(output).contains("Property: mcp.defaults.env")
			.contains("Value: set by the properties under it (not shown)")
			.contains("Property: mcp.defaults.url")
			.contains("Rule: is a setting of each server, not inherited: set it under mcp.servers.<name>")
			.doesNotContain("SECRET-KEY-3")
			.doesNotContain("SECRET-KEY-4");
	}

	private static void run(String... args) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run(args));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(McpSupervisorAutoConfiguration.class)
	static class Config {

	}

}
