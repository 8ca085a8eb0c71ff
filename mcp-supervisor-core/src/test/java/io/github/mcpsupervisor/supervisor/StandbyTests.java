package io.github.mcpsupervisor.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.github.mcpsupervisor.supervisor.StandbyTable.Edge;
import io.github.mcpsupervisor.supervisor.StandbyTable.Event;
import io.github.mcpsupervisor.supervisor.StandbyTable.Facts;
import io.github.mcpsupervisor.supervisor.StandbyTable.Guard;
import io.github.mcpsupervisor.supervisor.StandbyTable.Row;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The warm standby's transition table against its code, its Javadoc and the state diagram
 * of the reference documentation: every row is driven on virtual time and chosen by its
 * guard, no move outside the table is ever attempted, and the guards of a state and an
 * event leave no situation without a move.
 */
class StandbyTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private static final Duration MAX = Duration.ofSeconds(30);

	private static final int ATTEMPTS = 4;

	private static final Path SOURCE = Path.of("src/main/java/io/github/mcpsupervisor/supervisor/Standby.java");

	private static final Path HOW_IT_WORKS = Path.of("../docs/how-it-works.md");

	private static final Edge CONNECTED = new Edge(McpStandbyState.STARTING, Event.CONNECTED, McpStandbyState.READY);

	@Test
	void everyRowOfTheTableIsTakenByItsGuardAndNoMoveOutsideIt() {
		Set<Row> chosen = new LinkedHashSet<>();
		Set<Edge> taken = new LinkedHashSet<>();
		for (Scenario scenario : scenarios()) {
			Harness harness = new Harness(scenario.attempts(), true);
			scenario.script().accept(harness);
			assertThat(harness.choices).as("rows chosen by the scenario for %s", scenario.row())
				.contains(scenario.row());
			assertThat(harness.choices).extracting(Row::edge).containsExactlyElementsOf(harness.moves);
			assertThat(StandbyTable.TABLE).as("moves of the scenario for %s", scenario.row())
				.containsAll(harness.moves);
			chosen.addAll(harness.choices);
			taken.addAll(harness.moves);
			harness.supervisor.stop();
			harness.scheduler.runReady();
		}
		assertThat(chosen).containsExactlyInAnyOrderElementsOf(StandbyTable.ROWS);
		assertThat(taken).containsExactlyInAnyOrderElementsOf(StandbyTable.TABLE);
	}

	@Test
	void aServerWithoutStandbyMovesNoStandby() {
		Harness harness = new Harness(ATTEMPTS, false);
		harness.supervisor.start();
		harness.scheduler.runReady();
		harness.connector.last().crash(1);
		harness.scheduler.advance(MAX);
		harness.supervisor.reset();
		harness.supervisor.restart();
		harness.scheduler.advance(MAX);
		harness.supervisor.stop();
		harness.scheduler.runReady();
		assertThat(harness.connector.spawns()).isEqualTo(3);
		assertThat(harness.choices).isEmpty();
		assertThat(harness.moves).isEmpty();
	}

	@Test
	void aMoveOutsideTheTableFailsATestLoudly() {
		Harness harness = new Harness(ATTEMPTS, true);
		harness.standby().checkMoves(tableWithout(CONNECTED), true);
		harness.supervisor.start();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(harness.scheduler::runReady)
			.withMessage("MCP server 'demo': standby: no transition STARTING --CONNECTED--> READY");
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aMoveOutsideTheTableIsTakenInARunningApplicationWithAnError(CapturedOutput output) {
		Harness harness = new Harness(ATTEMPTS, true);
		harness.standby().checkMoves(tableWithout(CONNECTED), false);
		harness.up();
		assertThat(harness.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		assertThat(output).contains("ERROR")
			.contains("MCP server 'demo': standby: no transition STARTING --CONNECTED--> READY");
		harness.connector.generation(1).crash(1);
		harness.scheduler.runReady();
		assertThat(harness.supervisor.status().generation()).as("the spare is promoted").isEqualTo(2);
		assertThat(harness.supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build()).content())
			.isNotEmpty();
		harness.supervisor.stop();
		harness.scheduler.runReady();
	}

	private static Set<Edge> tableWithout(Edge edge) {
		Set<Edge> table = new HashSet<>(StandbyTable.TABLE);
		table.remove(edge);
		return table;
	}

	@Test
	void theJavadocTableIsTheTable() throws IOException {
		List<Row> documented = new ArrayList<>();
		Map<String, Guard> guards = Arrays.stream(Guard.values())
			.collect(Collectors.toMap(Guard::description, (guard) -> guard));
		Pattern row = Pattern.compile("^ \\* (\\w+)\\s*\\| ([A-Z_, ]+?)\\s*\\| ([^|]*?)\\s*\\| (\\w+)\\s*\\|.*$");
		for (String line : Files.readAllLines(SOURCE)) {
			Matcher matcher = row.matcher(line);
			if (!matcher.matches() || matcher.group(1).equals("from")) {
				continue;
			}
			assertThat(guards).as("the guard of %s", line).containsKey(matcher.group(3));
			for (String event : matcher.group(2).split(",\\s*")) {
				documented.add(new Row(McpStandbyState.valueOf(matcher.group(1)), Event.valueOf(event),
						guards.get(matcher.group(3)), McpStandbyState.valueOf(matcher.group(4))));
			}
		}
		assertThat(documented).as("the rows in the order they are read").containsExactlyElementsOf(StandbyTable.ROWS);
	}

	@Test
	void theGuardsOfAStateAndAnEventLeaveNoSituationWithoutAMoveAndNoRowUnreachable() {
		List<Kind> failures = new ArrayList<>(Arrays.asList(Kind.values()));
		failures.add(null);
		Set<Row> reachable = new HashSet<>();
		for (Row row : StandbyTable.ROWS) {
			for (int bits = 0; bits < (1 << 3); bits++) {
				for (Kind failure : failures) {
					Facts facts = new Facts((bits & 1) != 0, (bits & 2) != 0, failure, (bits & 4) != 0);
					Row chosen = StandbyTable.choose(row.from(), row.event(), facts);
					assertThat(chosen).as("the move of %s in %s when %s", row.event(), row.from(), facts).isNotNull();
					reachable.add(chosen);
				}
			}
		}
		assertThat(reachable).containsExactlyInAnyOrderElementsOf(StandbyTable.ROWS);
		assertThat(StandbyTable.ROWS).allSatisfy((row) -> {
			List<Row> rows = StandbyTable.ROWS.stream()
				.filter((other) -> other.from() == row.from() && other.event() == row.event())
				.toList();
			if (row.guard() == Guard.ALWAYS) {
				assertThat(rows).as("the rows of %s in %s", row.event(), row.from()).containsExactly(row);
			}
			if (row.guard() == Guard.OTHERWISE) {
				assertThat(rows).as("the rows of %s in %s", row.event(), row.from())
					.hasSizeGreaterThan(1)
					.endsWith(row);
			}
		});
	}

	@Test
	void theDocumentedDiagramHasExactlyTheEdgesOfTheTable() throws IOException {
		String document = Files.readString(HOW_IT_WORKS);
		int standby = document.indexOf("## Warm standby");
		int start = document.indexOf("```mermaid", standby);
		int end = document.indexOf("```", start + 3);
		assertThat(start).as("the diagram of the standby's states").isPositive();
		assertThat(document.indexOf("\n## ", standby + 3)).as("the diagram in its section").isGreaterThan(start);
		Set<String> drawn = new LinkedHashSet<>();
		Matcher arrow = Pattern.compile("(\\[\\*]|\\w+) --> (\\w+)").matcher(document.substring(start, end));
		while (arrow.find()) {
			if (!arrow.group(1).equals("[*]")) {
				drawn.add(arrow.group(1) + " -> " + arrow.group(2));
			}
		}
		Set<String> table = StandbyTable.TABLE.stream()
			.map((edge) -> edge.from() + " -> " + edge.to())
			.collect(Collectors.toSet());
		assertThat(drawn).containsExactlyInAnyOrderElementsOf(table);
	}

	private static List<Scenario> scenarios() {
		List<Scenario> all = new ArrayList<>();
		// WAITING
		all.add(withOneAttempt(McpStandbyState.WAITING, Event.REPLENISH, Guard.BUDGET_SPENT, McpStandbyState.FAILED,
				(h) -> {
					// the spare's attempt, the budget's only one, becomes the server's
					h.whileTheSpareOpens(() -> {
						h.connector.generation(1).crash(1);
						h.scheduler.runReady();
					});
					h.supervisor.start();
					h.scheduler.runReady();
					assertThat(h.supervisor.status().generation()).isEqualTo(2);
				}));
		all.add(on(McpStandbyState.WAITING, Event.REPLENISH, Guard.TREE_UNCONFIRMED, McpStandbyState.FAILED, (h) -> {
			// the spare becomes the server's attempt, and the lost generation's tree is
			// not confirmed gone before it connects
			h.whileTheSpareOpens(() -> {
				h.connector.terminationConfirmed = false;
				h.connector.generation(1).crash(1);
				h.scheduler.runReady();
				h.connector.terminationConfirmed = true;
			});
			h.supervisor.start();
			h.scheduler.runReady();
			assertThat(h.supervisor.status().standby().lastError()).contains("could not be confirmed gone");
		}));
		all.add(on(McpStandbyState.WAITING, Event.REPLENISH, Guard.OTHERWISE, McpStandbyState.STARTING, Harness::up));
		// STARTING
		all.add(on(McpStandbyState.STARTING, Event.CONNECTED, Guard.ALWAYS, McpStandbyState.READY, Harness::up));
		all.add(on(McpStandbyState.STARTING, Event.START_FAILED, Guard.NO_RETRY_HELPS, McpStandbyState.FAILED, (h) -> {
			h.connector.then(Outcome.CONNECT, Outcome.MISCONFIGURED);
			h.supervisor.start();
			h.scheduler.runReady();
		}));
		all.add(on(McpStandbyState.STARTING, Event.START_FAILED, Guard.BUDGET_LEFT, McpStandbyState.BACKING_OFF,
				(h) -> {
					h.connector.then(Outcome.CONNECT, Outcome.FAIL);
					h.supervisor.start();
					h.scheduler.runReady();
				}));
		all.add(on(McpStandbyState.STARTING, Event.START_FAILED, Guard.BUDGET_LEFT, McpStandbyState.BACKING_OFF,
				(h) -> {
					// the spare's connection cannot even be created
					h.connector.duringOpen = () -> h.connector.failingCreations = 1;
					h.supervisor.start();
					h.scheduler.runReady();
					assertThat(h.supervisor.status().standby().lastError()).contains("scripted failure to create");
				}));
		all.add(on(McpStandbyState.STARTING, Event.START_FAILED, Guard.BUDGET_SPENT, McpStandbyState.FAILED, (h) -> {
			h.connector.then(Outcome.CONNECT).always(Outcome.FAIL);
			h.supervisor.start();
			h.scheduler.advance(Duration.ofHours(1));
		}));
		all.add(on(McpStandbyState.STARTING, Event.ADOPTED, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			h.whileTheSpareOpens(() -> {
				h.connector.generation(1).crash(1);
				h.scheduler.runReady();
			});
			h.supervisor.start();
			h.scheduler.runReady();
		}));
		all.add(on(McpStandbyState.STARTING, Event.SUSPEND, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			h.whileTheSpareOpens(h.supervisor::restart);
			h.supervisor.start();
			h.scheduler.runReady();
		}));
		all.add(on(McpStandbyState.STARTING, Event.STOP, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			h.whileTheSpareOpens(h.supervisor::stop);
			h.supervisor.start();
			h.scheduler.runReady();
		}));
		// READY
		all.add(on(McpStandbyState.READY, Event.LOST, Guard.BUDGET_LEFT, McpStandbyState.BACKING_OFF, (h) -> {
			h.up();
			h.connector.generation(2).crash(137);
			h.scheduler.runReady();
		}));
		all.add(on(McpStandbyState.READY, Event.LOST, Guard.BUDGET_SPENT, McpStandbyState.FAILED, (h) -> {
			// the standby's last attempt is ready, within its stability window
			h.connector.then(Outcome.CONNECT, Outcome.FAIL, Outcome.FAIL, Outcome.FAIL);
			h.supervisor.start();
			h.scheduler.advance(Duration.ofSeconds(10));
			assertThat(h.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
			assertThat(h.supervisor.status().standby().attemptsUsed()).isEqualTo(ATTEMPTS);
			h.connector.generation(5).crash(137);
			h.scheduler.runReady();
		}));
		all.add(on(McpStandbyState.READY, Event.PROMOTED, Guard.SERVER_BUDGET_LEFT, McpStandbyState.BACKING_OFF,
				(h) -> {
					h.up();
					h.connector.generation(1).crash(137);
					h.scheduler.runReady();
				}));
		all.add(withOneAttempt(McpStandbyState.READY, Event.PROMOTED, Guard.SERVER_BUDGET_SPENT, McpStandbyState.FAILED,
				(h) -> {
					h.up();
					h.connector.generation(1).crash(137);
					h.scheduler.runReady();
					assertThat(h.supervisor.status().generation()).isEqualTo(2);
				}));
		all.add(on(McpStandbyState.READY, Event.SUSPEND, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			// the spare ended too, but its loss is not seen yet when the server's is
			h.up();
			h.connector.generation(1).crash(1);
			h.connector.generation(2).crash(1);
			h.scheduler.runReady();
		}));
		all.add(on(McpStandbyState.READY, Event.STOP, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			h.up();
			h.supervisor.stop();
		}));
		// BACKING_OFF
		all.add(on(McpStandbyState.BACKING_OFF, Event.RETRY_DUE, Guard.TREE_UNCONFIRMED, McpStandbyState.FAILED,
				(h) -> {
					// the restarted generation's tree is not confirmed gone
					h.up();
					h.connector.terminationConfirmed = false;
					h.supervisor.restart();
					h.scheduler.runReady();
					h.connector.terminationConfirmed = true;
					h.scheduler.advance(MAX);
				}));
		all.add(on(McpStandbyState.BACKING_OFF, Event.RETRY_DUE, Guard.OTHERWISE, McpStandbyState.STARTING, (h) -> {
			h.connector.then(Outcome.CONNECT, Outcome.FAIL);
			h.supervisor.start();
			h.scheduler.advance(MAX);
		}));
		all.add(on(McpStandbyState.BACKING_OFF, Event.SUSPEND, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			h.up();
			h.connector.generation(2).crash(137);
			h.scheduler.runReady();
			h.connector.generation(1).crash(137);
			h.scheduler.runReady();
		}));
		all.add(on(McpStandbyState.BACKING_OFF, Event.STOP, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			h.connector.then(Outcome.CONNECT, Outcome.FAIL);
			h.supervisor.start();
			h.scheduler.runReady();
			h.supervisor.stop();
		}));
		// FAILED
		for (Consumer<McpServerSupervisor> resetting : List
			.<Consumer<McpServerSupervisor>>of(McpServerSupervisor::reset, McpServerSupervisor::restart)) {
			all.add(on(McpStandbyState.FAILED, Event.RESET, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
				h.connector.then(Outcome.CONNECT, Outcome.MISCONFIGURED);
				h.supervisor.start();
				h.scheduler.runReady();
				resetting.accept(h.supervisor);
				h.scheduler.runReady();
			}));
		}
		all.add(on(McpStandbyState.FAILED, Event.STOP, Guard.ALWAYS, McpStandbyState.WAITING, (h) -> {
			h.connector.then(Outcome.CONNECT, Outcome.MISCONFIGURED);
			h.supervisor.start();
			h.scheduler.runReady();
			h.supervisor.stop();
		}));
		return all;
	}

	private static Scenario on(McpStandbyState from, Event event, Guard guard, McpStandbyState to,
			Consumer<Harness> script) {
		return new Scenario(new Row(from, event, guard, to), ATTEMPTS, script);
	}

	private static Scenario withOneAttempt(McpStandbyState from, Event event, Guard guard, McpStandbyState to,
			Consumer<Harness> script) {
		return new Scenario(new Row(from, event, guard, to), 1, script);
	}

	/**
	 * A script that takes one row of the standby's table.
	 */
	private record Scenario(Row row, int attempts, Consumer<Harness> script) {

	}

	/**
	 * A supervisor with a warm standby on virtual time whose standby's moves are
	 * recorded.
	 */
	private static final class Harness {

		final VirtualScheduler scheduler = new VirtualScheduler();

		final FakeConnector connector = new FakeConnector();

		final List<Edge> moves = new ArrayList<>();

		final List<Row> choices = new ArrayList<>();

		final McpServerSupervisor supervisor;

		Harness(int attempts, boolean standby) {
			this.supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
				.reconnect(ReconnectPolicy.builder()
					.initialDelay(INITIAL)
					.maxDelay(MAX)
					.maxAttempts(attempts)
					.jitter(0)
					.build())
				.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
				.standby(standby)
				.build();
			standby().observeMoves(this.moves::add);
			standby().observeChoices(this.choices::add);
		}

		Standby standby() {
			return this.supervisor.lifecycle().standby();
		}

		// Starts the server and its spare.
		void up() {
			this.supervisor.start();
			this.scheduler.runReady();
			assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
			assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		}

		// Runs what comes while the spare (the second generation) opens.
		void whileTheSpareOpens(Runnable during) {
			this.connector.duringOpen = () -> this.connector.duringOpen = during;
		}

	}

}
