package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ServerEnvironment}.
 */
class ServerEnvironmentTests {

	private final Map<String, String> application = new LinkedHashMap<>();

	ServerEnvironmentTests() {
		this.application.put("HOME", "/home/app");
		this.application.put("PATH", "/usr/bin:/bin");
		this.application.put("USER", "app");
		this.application.put("LANG", "en_US.UTF-8");
		this.application.put("LC_ALL", "C.UTF-8");
		this.application.put("TMPDIR", "/tmp/app");
		this.application.put("SECRET_DB_PASSWORD", "hunter2");
		this.application.put("OPENAI_API_KEY", "sk-123");
		this.application.put("AWS_REGION", "eu-west-1");
		this.application.put("AWS_SECRET_ACCESS_KEY", "aws-secret");
		this.application.put("TERM", "() { :; }; echo exported function");
	}

	@Test
	void aServerInheritsOnlyWhatEveryProcessNeedsAndItsOwnVariables() {
		Map<String, String> environment = ServerEnvironment.of(this.application, false, List.of(),
				Map.of("TOKEN", "own"));
		assertThat(environment).containsOnlyKeys("HOME", "PATH", "USER", "LANG", "LC_ALL", "TMPDIR", "TOKEN");
	}

	@Test
	void aServersOwnVariableWinsOverAnInheritedOne() {
		Map<String, String> environment = ServerEnvironment.of(this.application, false, List.of(),
				Map.of("PATH", "/opt/server/bin"));
		assertThat(environment).containsEntry("PATH", "/opt/server/bin");
	}

	@Test
	void namesAndPatternsInheritMore() {
		Map<String, String> environment = ServerEnvironment.of(this.application, false,
				List.of("AWS_*", "OPENAI_API_KEY"), Map.of());
		assertThat(environment).containsKeys("AWS_REGION", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY")
			.doesNotContainKey("SECRET_DB_PASSWORD");
		assertThat(ServerEnvironment.of(this.application, false, List.of("*_REGION"), Map.of()))
			.containsKey("AWS_REGION")
			.doesNotContainKey("AWS_SECRET_ACCESS_KEY");
	}

	@Test
	void aStarInheritsTheWholeEnvironmentButExportedShellFunctions() {
		Map<String, String> environment = ServerEnvironment.of(this.application, false, List.of("*"), Map.of());
		assertThat(environment)
			.containsAllEntriesOf(Map.of("SECRET_DB_PASSWORD", "hunter2", "OPENAI_API_KEY", "sk-123"))
			.doesNotContainKey("TERM");
	}

	@Test
	void anExportedShellFunctionIsPassedOnlyAsTheServersOwnVariable() {
		String function = "() { :; }";
		assertThat(ServerEnvironment.of(this.application, false, List.of("TERM"), Map.of())).doesNotContainKey("TERM");
		assertThat(ServerEnvironment.of(this.application, false, List.of(), Map.of("TERM", function)))
			.containsEntry("TERM", function);
	}

	@Test
	void aPatternMatchesNoMoreThanItSays() {
		this.application.put("A.B", "dotted");
		this.application.put("AXB", "not dotted");
		assertThat(ServerEnvironment.of(this.application, false, List.of("A.B"), Map.of())).containsKey("A.B")
			.doesNotContainKey("AXB");
	}

	@Test
	void onWindowsNamesMatchWhateverTheirCase() {
		Map<String, String> windows = new LinkedHashMap<>();
		windows.put("Path", "C:\\Windows");
		windows.put("SystemRoot", "C:\\Windows");
		windows.put("ComSpec", "C:\\Windows\\system32\\cmd.exe");
		windows.put("aws_profile", "dev");
		windows.put("SECRET_DB_PASSWORD", "hunter2");
		Map<String, String> environment = ServerEnvironment.of(windows, true, List.of("AWS_*"),
				Map.of("PATH", "D:\\server"));
		assertThat(environment).containsOnlyKeys("SystemRoot", "ComSpec", "aws_profile", "PATH")
			.containsEntry("PATH", "D:\\server");
	}

}
