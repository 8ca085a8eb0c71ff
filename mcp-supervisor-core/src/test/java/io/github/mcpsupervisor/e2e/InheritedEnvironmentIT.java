package io.github.mcpsupervisor.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a real stdio server gets of an application's environment that holds secrets.
 */
@DisabledOnOs(OS.WINDOWS)
@Tag("boot-independent")
class InheritedEnvironmentIT {

	@TempDir
	Path directory;

	@Test
	void aServerGetsNoneOfTheApplicationsSecretsByDefault() throws Exception {
		Map<String, String> environment = serverEnvironment();
		assertThat(environment).doesNotContainKeys("SECRET_DB_PASSWORD", "OPENAI_API_KEY", "AWS_REGION")
			.containsKeys("PATH", "HOME")
			.containsEntry("LC_ALL", "C.UTF-8")
			.containsEntry("OWN_VARIABLE", "own");
	}

	@Test
	void aServerGetsTheVariablesItsInheritEnvNames() throws Exception {
		Map<String, String> environment = serverEnvironment("AWS_*");
		assertThat(environment).containsEntry("AWS_REGION", "eu-west-1")
			.doesNotContainKeys("SECRET_DB_PASSWORD", "OPENAI_API_KEY");
	}

	@Test
	void aServerGetsTheWholeEnvironmentWithAStarButExportedShellFunctions() throws Exception {
		Map<String, String> environment = serverEnvironment("*");
		assertThat(environment).containsEntry("SECRET_DB_PASSWORD", "hunter2")
			.containsEntry("OPENAI_API_KEY", "sk-test")
			.doesNotContainKey("BASH_FUNC_greet%%");
	}

	// The environment the server saw, run from an application whose environment holds
	// secrets.
	private Map<String, String> serverEnvironment(String... inheritEnv) throws Exception {
		Path file = this.directory.resolve("environment");
		List<String> command = new ArrayList<>(List.of(TestServers.java(), "-cp", System.getProperty("java.class.path"),
				InheritedEnvironmentApplication.class.getName(), file.toString()));
		command.addAll(List.of(inheritEnv));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().put("SECRET_DB_PASSWORD", "hunter2");
		builder.environment().put("OPENAI_API_KEY", "sk-test");
		builder.environment().put("AWS_REGION", "eu-west-1");
		builder.environment().put("LC_ALL", "C.UTF-8");
		builder.environment().put("BASH_FUNC_greet%%", "() {  echo hello\n}");
		Process application = builder.start();
		String output = new String(application.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(application.waitFor(120, TimeUnit.SECONDS)).isTrue();
		assertThat(output).contains("started=UP");
		return Files.readAllLines(file)
			.stream()
			.filter((line) -> line.matches("^[^=\\s]+=.*"))
			.collect(Collectors.toMap((line) -> line.substring(0, line.indexOf('=')),
					(line) -> line.substring(line.indexOf('=') + 1), (first, second) -> second));
	}

}
