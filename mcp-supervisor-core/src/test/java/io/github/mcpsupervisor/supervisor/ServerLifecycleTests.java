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

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.ServerPhase.Edge;
import io.github.mcpsupervisor.supervisor.ServerPhase.Event;
import io.github.mcpsupervisor.supervisor.ServerPhase.Facts;
import io.github.mcpsupervisor.supervisor.ServerPhase.Guard;
import io.github.mcpsupervisor.supervisor.ServerPhase.Row;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The state machine's transition table against its code, its Javadoc and the state
 * diagram of the reference documentation: every row is driven on virtual time, each
 * guarded row chosen by its guard, and no move outside the table is ever attempted; the
 * guards of a phase and an event leave no situation without a move.
 */
class ServerLifecycleTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private static final Duration MAX = Duration.ofSeconds(30);

	private static final Duration COOLDOWN = Duration.ofHours(1);

	private static final int ATTEMPTS = 4;

	private static final Path SOURCE = Path.of("src/main/java/io/github/mcpsupervisor/supervisor/ServerLifecycle.java");

	private static final Edge CONNECTED = new Edge(ServerPhase.STARTING_CONNECTING, Event.CONNECTED, ServerPhase.UP);

	private static final Path HOW_IT_WORKS = Path.of("../docs/how-it-works.md");

	private static final Duration IDLE_TIME = Duration.ofMinutes(5);

	private static @Nullable Path catalogs;

	// One directory for the catalogs of all harnesses: each keeps the same tools.
	private static synchronized Path catalogs() {
		if (catalogs == null) {
			try {
				catalogs = Files.createTempDirectory("catalogs");
				catalogs.toFile().deleteOnExit();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return catalogs;
	}

	@Test
	void everyRowOfTheTableIsTakenAndNoMoveOutsideIt() {
		Set<Edge> taken = new LinkedHashSet<>();
		for (Scenario scenario : scenarios()) {
			Harness harness = new Harness(scenario.reconnects(), scenario.standby(), scenario.attempts(),
					scenario.unused());
			scenario.script().accept(harness);
			assertThat(harness.moves).as("moves of the scenario for %s", scenario.edge()).contains(scenario.edge());
			assertThat(ServerPhase.TABLE).as("moves of the scenario for %s", scenario.edge())
				.containsAll(harness.moves);
			taken.addAll(harness.moves);
			harness.supervisor.stop();
			harness.scheduler.runReady();
		}
		assertThat(taken).containsExactlyInAnyOrderElementsOf(ServerPhase.TABLE);
	}

	@Test
	void aStartDuringAStopNeverLeavesAResetToLaunchBesideATreeNotConfirmedGone() {
		Harness h = new Harness(false, false);
		h.up();
		FakeConnector.FakeConnection first = h.connector.last();
		// the first termination confirms nothing; a start comes while the stop closes
		h.connector.duringTermination = () -> h.connector.terminationConfirmed = false;
		h.connector.duringClose = () -> {
			h.connector.then(Outcome.FAIL);
			h.supervisor.start();
		};
		h.supervisor.stop();
		h.scheduler.runReady();
		h.connector.terminationConfirmed = true;
		boolean[] firstAliveAtOpen = new boolean[1];
		h.connector.duringOpen = () -> firstAliveAtOpen[0] = first.processAlive;
		h.supervisor.reset();
		h.scheduler.runReady();
		assertThat(firstAliveAtOpen[0]).as("the first generation's tree alive as the next one opens").isFalse();
		assertThat(h.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void aStartThatFirstTerminatesATreeAgainTakesOneAttemptAsAnyStart() {
		Harness plain = new Harness(true, false);
		plain.up();
		Harness h = new Harness(true, false);
		h.stopWithUnconfirmedTree();
		h.supervisor.start();
		h.scheduler.runReady();
		assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
		assertThat(h.supervisor.status().attemptsUsed()).isEqualTo(plain.supervisor.status().attemptsUsed());
	}

	@Test
	void aResetThatFirstTerminatesATreeAgainTakesOneAttemptAsAnyReset() {
		Harness plain = new Harness(true, false);
		plain.connector.then(Outcome.MISCONFIGURED);
		plain.supervisor.start();
		plain.scheduler.runReady();
		plain.supervisor.reset();
		plain.scheduler.runReady();
		Harness h = new Harness(true, false);
		h.up();
		h.connector.terminationConfirmed = false;
		h.connector.last().crash(1);
		h.scheduler.runReady();
		assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.FAILED);
		h.connector.terminationConfirmed = true;
		h.supervisor.reset();
		h.scheduler.runReady();
		assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
		assertThat(plain.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
		assertThat(h.supervisor.status().attemptsUsed()).isEqualTo(plain.supervisor.status().attemptsUsed());
	}

	@Test
	void aMoveOutsideTheTableFailsATestLoudly() {
		Harness harness = new Harness(true, false);
		harness.supervisor.lifecycle().checkMoves(tableWithout(CONNECTED), true);
		harness.supervisor.start();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(harness.scheduler::runReady)
			.withMessage("MCP server 'demo': no transition STARTING_CONNECTING --CONNECTED--> UP");
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aMoveOutsideTheTableIsTakenInARunningApplicationWithAnError(CapturedOutput output) {
		Harness harness = new Harness(true, false);
		harness.supervisor.lifecycle().checkMoves(tableWithout(CONNECTED), false);
		harness.supervisor.start();
		harness.scheduler.runReady();
		assertThat(harness.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
		assertThat(harness.supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build()).content())
			.isNotEmpty();
		assertThat(output).contains("ERROR")
			.contains("MCP server 'demo': no transition STARTING_CONNECTING --CONNECTED--> UP");
		harness.connector.last().crash(1);
		harness.scheduler.advance(MAX);
		assertThat(harness.supervisor.lifecycle().phase()).as("the server goes on").isEqualTo(ServerPhase.UP);
		harness.supervisor.stop();
		harness.scheduler.runReady();
	}

	@Test
	void everyGuardedRowIsChosenByItsGuard() {
		Set<Row> chosen = new LinkedHashSet<>();
		for (Scenario scenario : scenarios()) {
			Harness harness = new Harness(scenario.reconnects(), scenario.standby(), scenario.attempts(),
					scenario.unused());
			scenario.script().accept(harness);
			if (scenario.guard() != null) {
				Edge edge = scenario.edge();
				assertThat(harness.choices).as("rows chosen by the scenario for %s if %s", edge, scenario.guard())
					.contains(new Row(edge.from(), edge.event(), scenario.guard(), edge.to()));
			}
			assertThat(harness.choices).extracting(Row::edge).containsExactlyElementsOf(harness.moves);
			chosen.addAll(harness.choices);
			harness.supervisor.stop();
			harness.scheduler.runReady();
		}
		assertThat(chosen).containsExactlyInAnyOrderElementsOf(ServerPhase.ROWS);
	}

	@Test
	void theGuardsOfAPhaseAndAnEventLeaveNoSituationWithoutAMoveAndNoRowUnreachable() {
		List<Facts> situations = situations();
		Set<Row> reachable = new HashSet<>();
		for (Row row : ServerPhase.ROWS) {
			for (Facts facts : situations) {
				Row chosen = ServerPhase.choose(row.from(), row.event(), facts);
				assertThat(chosen).as("the move of %s in %s when %s", row.event(), row.from(), facts).isNotNull();
				reachable.add(chosen);
			}
		}
		assertThat(reachable).containsExactlyInAnyOrderElementsOf(ServerPhase.ROWS);
		assertThat(ServerPhase.ROWS).allSatisfy((row) -> {
			List<Row> rows = ServerPhase.ROWS.stream()
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

	// Every combination of what the guards see.
	private static List<Facts> situations() {
		List<Facts> situations = new ArrayList<>();
		List<Kind> failures = new ArrayList<>(Arrays.asList(Kind.values()));
		failures.add(null);
		for (int bits = 0; bits < (1 << 8); bits++) {
			for (Kind failure : failures) {
				situations.add(new Facts(bit(bits, 0), bit(bits, 1), bit(bits, 2), failure, bit(bits, 3), bit(bits, 4),
						bit(bits, 5), bit(bits, 6), bit(bits, 7)));
			}
		}
		return situations;
	}

	private static boolean bit(int bits, int index) {
		return (bits & (1 << index)) != 0;
	}

	private static Set<Edge> tableWithout(Edge edge) {
		Set<Edge> table = new HashSet<>(ServerPhase.TABLE);
		table.remove(edge);
		return table;
	}

	@Test
	void theJavadocTableIsTheTable() throws IOException {
		Set<Edge> documented = new LinkedHashSet<>();
		List<Row> documentedRows = new ArrayList<>();
		Map<String, Guard> guards = Arrays.stream(Guard.values())
			.collect(Collectors.toMap(Guard::description, (guard) -> guard));
		Pattern row = Pattern
			.compile("^ \\* (\\w[\\w ]*?)\\s*\\| ([A-Z_, ]+?)\\s*\\| ([^|]*?)\\s*\\| (\\w+)\\s*\\|.*$");
		for (String line : Files.readAllLines(SOURCE)) {
			Matcher matcher = row.matcher(line);
			if (!matcher.matches() || matcher.group(1).equals("from")) {
				continue;
			}
			assertThat(guards).as("the guard of %s", line).containsKey(matcher.group(3));
			Guard guard = guards.get(matcher.group(3));
			ServerPhase to = ServerPhase.valueOf(matcher.group(4));
			for (String event : matcher.group(2).split(",\\s*")) {
				if (matcher.group(1).equals("any phase but STOPPED")) {
					for (ServerPhase from : ServerPhase.values()) {
						if (from != ServerPhase.STOPPED) {
							documented.add(new Edge(from, Event.valueOf(event), to));
							documentedRows.add(new Row(from, Event.valueOf(event), guard, to));
						}
					}
				}
				else {
					documented.add(new Edge(ServerPhase.valueOf(matcher.group(1)), Event.valueOf(event), to));
					documentedRows.add(new Row(ServerPhase.valueOf(matcher.group(1)), Event.valueOf(event), guard, to));
				}
			}
		}
		assertThat(documented).containsExactlyInAnyOrderElementsOf(ServerPhase.TABLE);
		assertThat(documentedRows).as("the rows in the order they are read")
			.containsExactlyElementsOf(ServerPhase.ROWS);
	}

	@Test
	void theDocumentedDiagramHasExactlyThePublicEdgesOfTheTable() throws IOException {
		String document = Files.readString(HOW_IT_WORKS);
		int states = document.indexOf("## States");
		int start = document.indexOf("```mermaid", states);
		int end = document.indexOf("```", start + 3);
		Set<String> drawn = new LinkedHashSet<>();
		Matcher arrow = Pattern.compile("(\\[\\*]|\\w+) --> (\\w+)").matcher(document.substring(start, end));
		while (arrow.find()) {
			if (!arrow.group(1).equals("[*]")) {
				drawn.add(arrow.group(1) + " -> " + arrow.group(2));
			}
		}
		Set<String> table = ServerPhase.TABLE.stream()
			.filter((edge) -> edge.from().state() != edge.to().state())
			.map((edge) -> edge.from().state() + " -> " + edge.to().state())
			.collect(Collectors.toSet());
		assertThat(drawn).containsExactlyInAnyOrderElementsOf(table);
	}

	@Test
	void nothingAroundTheStateMachinePointsBackAtIt() {
		JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages(ServerLifecycle.class.getPackageName());
		// the facade holds it; everything else is built before it and reports to it
		// through a relay bound once it is built
		ArchRuleDefinition.noClasses()
			.that()
			.doNotBelongToAnyOf(ServerLifecycle.class, McpServerSupervisor.class)
			.should()
			.dependOnClassesThat()
			.belongToAnyOf(ServerLifecycle.class)
			.check(classes);
		ArchRuleDefinition.noClasses()
			.that()
			.belongToAnyOf(ServerRecord.class)
			.should()
			.dependOnClassesThat()
			.belongToAnyOf(Standby.class)
			.check(classes);
	}

	private static List<Scenario> scenarios() {
		List<Scenario> all = new ArrayList<>();
		// ServerPhase.STOPPED
		all.add(on(ServerPhase.STOPPED, Event.START, ServerPhase.STARTING_CONNECTING, (h) -> h.supervisor.start()));
		all.add(on(ServerPhase.STOPPED, Event.START, ServerPhase.STARTING_AWAITING_STOP, Harness::startDuringStop));
		all.add(on(ServerPhase.STOPPED, Event.START, ServerPhase.STARTING_TERMINATING_THEN_CONNECT, (h) -> {
			h.stopWithUnconfirmedTree();
			h.supervisor.start();
		}));
		// STARTING
		all.add(on(ServerPhase.STARTING_AWAITING_STOP, Event.STOP_ENDED, ServerPhase.STARTING_CONNECTING, (h) -> {
			h.startDuringStop();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.STARTING_AWAITING_STOP, Event.STOP_ENDED, ServerPhase.STARTING_TERMINATING_THEN_CONNECT,
				(h) -> {
					h.up();
					h.connector.terminationConfirmed = false;
					h.supervisor.stop();
					h.supervisor.start();
					h.scheduler.runReady();
				}));
		all.add(on(ServerPhase.STARTING_AWAITING_STOP, Event.RESTART, ServerPhase.STARTING_AWAITING_STOP, (h) -> {
			h.startDuringStop();
			h.supervisor.restart();
		}));
		all.add(on(ServerPhase.STARTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, ServerPhase.STARTING_CONNECTING,
				(h) -> {
					h.stopWithUnconfirmedTree();
					h.supervisor.start();
					h.scheduler.runReady();
				}));
		all.add(on(ServerPhase.STARTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, ServerPhase.FAILED, (h) -> {
			h.stopWithUnconfirmedTree();
			h.connector.terminationConfirmed = false;
			h.supervisor.start();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.STARTING_TERMINATING_THEN_CONNECT, Event.RESTART,
				ServerPhase.STARTING_TERMINATING_THEN_CONNECT, (h) -> {
					h.stopWithUnconfirmedTree();
					h.supervisor.start();
					h.supervisor.restart();
				}));
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.CONNECTED, ServerPhase.UP, Harness::up));
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.RECONNECTING_BACKING_OFF,
				Harness::backingOff));
		all.add(disabled(ServerPhase.STARTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.DISCONNECTED, (h) -> {
			h.connector.then(Outcome.FAIL);
			h.supervisor.start();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.FAILED, (h) -> {
			h.connector.then(Outcome.MISCONFIGURED);
			h.supervisor.start();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.RESTART, ServerPhase.STARTING_CONNECTING_AGAIN,
				Harness::startAndRestart));
		all.add(on(ServerPhase.STARTING_CONNECTING_AGAIN, Event.CONNECTED, ServerPhase.UP, (h) -> {
			h.startAndRestart();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, ServerPhase.STARTING_CONNECTING,
				(h) -> {
					h.connector.then(Outcome.FAIL);
					h.startAndRestart();
					h.scheduler.runReady();
				}));
		all.add(on(ServerPhase.STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, ServerPhase.FAILED, (h) -> {
			h.connector.then(Outcome.MISCONFIGURED);
			h.startAndRestart();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.NEEDS_AUTHORIZATION,
				Harness::needsAuthorization));
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.AUTHORIZED, ServerPhase.STARTING_CONNECTING_AGAIN, (h) -> {
			h.connector.then(Outcome.UNAUTHORIZED);
			h.supervisor.start();
			h.connector.authorize();
			h.scheduler.runReady();
			assertThat(h.supervisor.state()).as("the attempt made again").isEqualTo(McpServerState.UP);
		}));
		all.add(on(ServerPhase.STARTING_CONNECTING_AGAIN, Event.AUTHORIZED, ServerPhase.STARTING_CONNECTING_AGAIN,
				(h) -> {
					h.startAndRestart();
					h.connector.authorize();
				}));
		all.add(on(ServerPhase.STARTING_CONNECTING_AGAIN, Event.RESTART, ServerPhase.STARTING_CONNECTING_AGAIN, (h) -> {
			h.startAndRestart();
			h.supervisor.restart();
		}));
		// ServerPhase.UP
		all.add(on(ServerPhase.UP, Event.LOST, ServerPhase.RECONNECTING_TERMINATING, Harness::crash));
		all.add(disabled(ServerPhase.UP, Event.LOST, ServerPhase.DISCONNECTED_TERMINATING, Harness::crash));
		all.add(on(ServerPhase.UP, Event.SURVIVED_KILL, ServerPhase.FAILED, (h) -> {
			h.up();
			h.connector.terminationConfirmed = false;
			h.supervisor.lifecycle().view().end(h.connector.last(), "liveness: hung");
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.UP, Event.RESTART, ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT,
				Harness::upAndRestart));
		all.add(withStandby(ServerPhase.UP, Event.LOST, ServerPhase.UP, (h) -> {
			h.up();
			h.connector.connections.get(0).crash(1);
			h.scheduler.runReady();
		}));
		all.add(withStandby(ServerPhase.UP, Event.LOST, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
			// the live generation is lost while its spare opens
			h.connector.duringOpen = () -> h.connector.duringOpen = () -> {
				h.connector.connections.get(0).crash(1);
				h.scheduler.runReady();
			};
			h.up();
		}));
		all.add(withStandby(ServerPhase.UP, Event.RESTART, ServerPhase.UP, Harness::upAndRestart));
		// RECONNECTING
		all.add(on(ServerPhase.RECONNECTING_TERMINATING, Event.TERMINATED, ServerPhase.RECONNECTING_BACKING_OFF,
				Harness::crash));
		all.add(on(ServerPhase.RECONNECTING_TERMINATING, Event.TERMINATED, ServerPhase.FAILED, (h) -> {
			h.up();
			h.connector.terminationConfirmed = false;
			h.crash();
		}));
		for (Event event : List.of(Event.RESET, Event.RESTART)) {
			all.add(on(ServerPhase.RECONNECTING_TERMINATING, event, ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT,
					(h) -> h.crashAnd(event)));
			all.add(on(ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, event,
					ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, (h) -> {
						h.upAndRestart();
						h.fire(event);
					}));
			all.add(on(ServerPhase.RECONNECTING_BACKING_OFF, event, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
				h.backingOff();
				h.fire(event);
			}));
			all.add(on(ServerPhase.RECONNECTING_CONNECTING, event, ServerPhase.RECONNECTING_CONNECTING_AGAIN, (h) -> {
				h.backingOff();
				h.fire(event);
				h.fire(event);
			}));
			all.add(on(ServerPhase.RECONNECTING_CONNECTING_AGAIN, event, ServerPhase.RECONNECTING_CONNECTING_AGAIN,
					(h) -> {
						h.backingOff();
						h.fire(event);
						h.fire(event);
						h.fire(event);
					}));
			all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING, event,
					ServerPhase.DISCONNECTED_TERMINATING_THEN_CONNECT, (h) -> h.crashAnd(event)));
			all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING_THEN_CONNECT, event,
					ServerPhase.DISCONNECTED_TERMINATING_THEN_CONNECT, (h) -> {
						h.up();
						h.connector.duringTermination = () -> {
							h.fire(event);
							h.fire(event);
						};
						h.crash();
					}));
			all.add(disabled(ServerPhase.DISCONNECTED, event, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
				h.crash();
				h.fire(event);
			}));
			all.add(on(ServerPhase.FAILED, event, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
				h.connector.then(Outcome.MISCONFIGURED);
				h.supervisor.start();
				h.scheduler.runReady();
				h.fire(event);
			}));
			all.add(on(ServerPhase.FAILED, event, ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, (h) -> {
				h.up();
				h.connector.terminationConfirmed = false;
				h.crash();
				h.connector.terminationConfirmed = true;
				h.fire(event);
			}));
		}
		all.add(on(ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, Event.TERMINATED,
				ServerPhase.RECONNECTING_CONNECTING, (h) -> {
					h.upAndRestart();
					h.scheduler.runReady();
				}));
		all.add(on(ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, ServerPhase.FAILED, (h) -> {
			h.up();
			h.connector.terminationConfirmed = false;
			h.supervisor.restart();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.RECONNECTING_BACKING_OFF, Event.RETRY_DUE, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
			h.backingOff();
			h.scheduler.advance(MAX);
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.CONNECTED, ServerPhase.UP, (h) -> {
			h.backingOff();
			h.scheduler.advance(MAX);
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.RECONNECTING_BACKING_OFF,
				(h) -> {
					h.connector.then(Outcome.FAIL);
					h.backingOff();
					h.scheduler.advance(MAX);
				}));
		all.add(disabled(ServerPhase.RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.DISCONNECTED, (h) -> {
			h.crash();
			h.connector.then(Outcome.FAIL);
			h.supervisor.reset();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.FAILED, (h) -> {
			h.backingOff();
			h.connector.then(Outcome.MISCONFIGURED);
			h.scheduler.advance(MAX);
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING_AGAIN, Event.CONNECTED, ServerPhase.UP, (h) -> {
			h.backingOff();
			h.supervisor.reset();
			h.supervisor.reset();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, ServerPhase.RECONNECTING_CONNECTING,
				(h) -> {
					h.connector.then(Outcome.FAIL);
					h.backingOff();
					h.supervisor.reset();
					h.supervisor.reset();
					h.scheduler.runReady();
				}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, ServerPhase.FAILED, (h) -> {
			h.backingOff();
			h.connector.then(Outcome.MISCONFIGURED);
			h.supervisor.reset();
			h.supervisor.reset();
			h.scheduler.runReady();
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, ServerPhase.NEEDS_AUTHORIZATION, (h) -> {
			h.backingOff();
			h.connector.then(Outcome.UNAUTHORIZED);
			h.scheduler.advance(MAX);
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.AUTHORIZED, ServerPhase.RECONNECTING_CONNECTING_AGAIN,
				(h) -> {
					h.backingOff();
					h.connector.then(Outcome.UNAUTHORIZED);
					h.supervisor.reset();
					h.connector.authorize();
					h.scheduler.runReady();
					assertThat(h.supervisor.state()).as("the attempt made again").isEqualTo(McpServerState.UP);
				}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING_AGAIN, Event.AUTHORIZED,
				ServerPhase.RECONNECTING_CONNECTING_AGAIN, (h) -> {
					h.backingOff();
					h.supervisor.reset();
					h.supervisor.reset();
					h.connector.authorize();
				}));
		// ServerPhase.NEEDS_AUTHORIZATION
		all.add(on(ServerPhase.NEEDS_AUTHORIZATION, Event.AUTHORIZED, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
			h.needsAuthorization();
			h.connector.authorize();
		}));
		for (Event event : List.of(Event.RESET, Event.RESTART)) {
			all.add(on(ServerPhase.NEEDS_AUTHORIZATION, event, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
				h.needsAuthorization();
				h.fire(event);
			}));
		}
		all.add(on(ServerPhase.NEEDS_AUTHORIZATION, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.needsAuthorization();
			h.supervisor.stop();
		}));
		// ServerPhase.DISCONNECTED
		all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING, Event.TERMINATED, ServerPhase.DISCONNECTED,
				Harness::crash));
		all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING, Event.TERMINATED, ServerPhase.FAILED, (h) -> {
			h.up();
			h.connector.terminationConfirmed = false;
			h.crash();
		}));
		all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING_THEN_CONNECT, Event.TERMINATED,
				ServerPhase.RECONNECTING_CONNECTING, (h) -> h.crashAnd(Event.RESET)));
		all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING_THEN_CONNECT, Event.TERMINATED, ServerPhase.FAILED,
				(h) -> {
					h.up();
					h.connector.duringTermination = () -> {
						h.supervisor.reset();
						h.connector.terminationConfirmed = false;
					};
					h.crash();
				}));
		// STOP from every phase but ServerPhase.STOPPED
		all.add(on(ServerPhase.STARTING_AWAITING_STOP, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.startDuringStop();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.STARTING_TERMINATING_THEN_CONNECT, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.stopWithUnconfirmedTree();
			h.supervisor.start();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.supervisor.start();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.STARTING_CONNECTING_AGAIN, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.startAndRestart();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.UP, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.up();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.RECONNECTING_TERMINATING, Event.STOP, ServerPhase.STOPPED,
				(h) -> h.crashAnd(Event.STOP)));
		all.add(on(ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.upAndRestart();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.RECONNECTING_BACKING_OFF, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.backingOff();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.backingOff();
			h.supervisor.reset();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING_AGAIN, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.backingOff();
			h.supervisor.reset();
			h.supervisor.reset();
			h.supervisor.stop();
		}));
		all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING, Event.STOP, ServerPhase.STOPPED,
				(h) -> h.crashAnd(Event.STOP)));
		all.add(disabled(ServerPhase.DISCONNECTED_TERMINATING_THEN_CONNECT, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.up();
			h.connector.duringTermination = () -> {
				h.supervisor.reset();
				h.supervisor.stop();
			};
			h.crash();
		}));
		all.add(disabled(ServerPhase.DISCONNECTED, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.crash();
			h.supervisor.stop();
		}));
		all.add(on(ServerPhase.FAILED, Event.COOLDOWN_OVER, ServerPhase.RECONNECTING_CONNECTING, (h) -> {
			h.connector.always(Outcome.FAIL);
			h.supervisor.start();
			h.scheduler.advance(Duration.ofMinutes(1));
			assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.FAILED);
			h.connector.always(Outcome.CONNECT);
			h.scheduler.advance(COOLDOWN);
		}));
		all.add(withStandby(ServerPhase.RECONNECTING_BACKING_OFF, Event.RETRY_DUE,
				ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, (h) -> {
					h.whileTheRestartedTreeIsTerminatedInVain(() -> {
						h.connector.generation(2).crash(1);
						h.scheduler.runReady();
					});
					assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.RECONNECTING_BACKING_OFF);
					h.scheduler.advance(MAX);
					assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
				}));
		all.add(withStandby(ServerPhase.FAILED, Event.COOLDOWN_OVER, ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT,
				(h) -> {
					h.whileTheRestartedTreeIsTerminatedInVain(() -> {
						h.connector.always(Outcome.FAIL);
						h.connector.generation(2).crash(1);
						h.scheduler.runReady();
						h.scheduler.advance(Duration.ofMinutes(1));
					});
					assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.FAILED);
					h.connector.always(Outcome.CONNECT);
					h.scheduler.advance(COOLDOWN);
					assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
				}));
		all.add(withStandby(ServerPhase.RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED,
				ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, (h) -> {
					h.up();
					h.connector.duringTermination = () -> {
						h.connector.generation(2).crash(1);
						h.scheduler.runReady();
						h.connector.then(Outcome.FAIL);
						h.supervisor.reset();
						h.supervisor.reset();
						assertThat(h.supervisor.lifecycle().phase())
							.isEqualTo(ServerPhase.RECONNECTING_CONNECTING_AGAIN);
						// the attempt fails once the restarted tree is found not
						// confirmed
						// gone
						h.connector.duringOpen = () -> {
							h.connector.terminationConfirmed = true;
							h.watchTheOldTreeAtTheNextOpen();
						};
						h.connector.terminationConfirmed = false;
					};
					h.supervisor.restart();
					h.scheduler.runReady();
					h.assertTheOldTreeIsGoneAtTheNextAttempt();
				}));
		all.add(withStandby(ServerPhase.NEEDS_AUTHORIZATION, Event.AUTHORIZED,
				ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, (h) -> {
					h.whileTheRestartedTreeIsTerminatedInVain(() -> {
						h.connector.generation(2).crash(1);
						h.scheduler.runReady();
						h.connector.then(Outcome.UNAUTHORIZED);
						h.scheduler.advance(MAX);
					});
					assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.NEEDS_AUTHORIZATION);
					h.watchTheOldTreeAtTheNextOpen();
					h.connector.authorize();
					h.scheduler.runReady();
					h.assertTheOldTreeIsGoneAtTheNextAttempt();
				}));
		for (Event event : List.of(Event.RESET, Event.RESTART)) {
			all.add(withStandby(ServerPhase.RECONNECTING_BACKING_OFF, event,
					ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, (h) -> {
						h.whileTheRestartedTreeIsTerminatedInVain(() -> {
							h.connector.generation(2).crash(1);
							h.scheduler.runReady();
						});
						assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.RECONNECTING_BACKING_OFF);
						h.watchTheOldTreeAtTheNextOpen();
						h.fire(event);
						h.scheduler.runReady();
						h.assertTheOldTreeIsGoneAtTheNextAttempt();
					}));
			all.add(withStandby(ServerPhase.NEEDS_AUTHORIZATION, event,
					ServerPhase.RECONNECTING_TERMINATING_THEN_CONNECT, (h) -> {
						h.whileTheRestartedTreeIsTerminatedInVain(() -> {
							h.connector.generation(2).crash(1);
							h.scheduler.runReady();
							h.connector.then(Outcome.UNAUTHORIZED);
							h.scheduler.advance(MAX);
						});
						assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.NEEDS_AUTHORIZATION);
						h.watchTheOldTreeAtTheNextOpen();
						h.fire(event);
						h.scheduler.runReady();
						h.assertTheOldTreeIsGoneAtTheNextAttempt();
					}));
		}
		// the rows that share their move with another row of their phase and event
		all.add(on(ServerPhase.STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE, ServerPhase.FAILED,
				(h) -> {
					h.connector.then(Outcome.FAIL);
					h.connector.terminationConfirmed = false;
					h.supervisor.start();
					h.scheduler.runReady();
					h.connector.terminationConfirmed = true;
				}));
		all.add(withOneAttempt(ServerPhase.STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.BUDGET_SPENT,
				ServerPhase.FAILED, (h) -> {
					h.connector.then(Outcome.FAIL);
					h.supervisor.start();
					h.scheduler.runReady();
				}));
		all.add(on(ServerPhase.STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE,
				ServerPhase.FAILED, (h) -> {
					h.connector.then(Outcome.FAIL);
					h.connector.terminationConfirmed = false;
					h.startAndRestart();
					h.scheduler.runReady();
					h.connector.terminationConfirmed = true;
				}));
		all.add(on(ServerPhase.RECONNECTING_TERMINATING, Event.TERMINATED, Guard.BUDGET_SPENT, ServerPhase.FAILED,
				(h) -> {
					// the last attempt of the budget connects, and its generation is lost
					// within the stability window
					h.connector.then(Outcome.CONNECT, Outcome.FAIL, Outcome.FAIL);
					h.crash();
					h.scheduler.advance(MAX);
					assertThat(h.supervisor.status().attemptsUsed()).isEqualTo(ATTEMPTS);
					h.crash();
				}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE,
				ServerPhase.FAILED, (h) -> {
					h.backingOff();
					h.connector.then(Outcome.FAIL);
					h.connector.terminationConfirmed = false;
					h.scheduler.advance(MAX);
					h.connector.terminationConfirmed = true;
				}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.BUDGET_SPENT, ServerPhase.FAILED,
				(h) -> {
					h.connector.always(Outcome.FAIL);
					h.supervisor.start();
					h.scheduler.advance(Duration.ofMinutes(1));
				}));
		all.add(on(ServerPhase.RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE,
				ServerPhase.FAILED, (h) -> {
					h.backingOff();
					h.connector.then(Outcome.FAIL);
					h.connector.terminationConfirmed = false;
					h.supervisor.reset();
					h.supervisor.reset();
					h.scheduler.runReady();
					h.connector.terminationConfirmed = true;
				}));
		all.add(on(ServerPhase.FAILED, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.connector.then(Outcome.MISCONFIGURED);
			h.supervisor.start();
			h.scheduler.runReady();
			h.supervisor.stop();
		}));
		all.addAll(unusedScenarios());
		return all;
	}

	// The rows of a server that starts on first use and is stopped while unused.
	private static List<Scenario> unusedScenarios() {
		List<Scenario> all = new ArrayList<>();
		all.add(unused(ServerPhase.STOPPED, Event.START, ServerPhase.IDLE, (h) -> {
			h.supervisor.start();
			assertThat(h.connector.spawns()).as("nothing started").isZero();
		}));
		all.add(unused(ServerPhase.STARTING_AWAITING_STOP, Event.STOP_ENDED, ServerPhase.IDLE, (h) -> {
			h.awake();
			h.supervisor.stop();
			h.supervisor.start();
			assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.STARTING_AWAITING_STOP);
			h.scheduler.runReady();
		}));
		all.add(unused(ServerPhase.IDLE, Event.CALLED, ServerPhase.STARTING_CONNECTING, Harness::awake));
		all.add(unused(ServerPhase.IDLE, Event.RESTART, ServerPhase.STARTING_CONNECTING, (h) -> {
			h.supervisor.start();
			h.supervisor.restart();
		}));
		all.add(unusedWithStandby(ServerPhase.IDLE, Event.CALLED, ServerPhase.STARTING_TERMINATING_THEN_CONNECT,
				(h) -> {
					h.idleWithItsSpareNotConfirmedGone();
					h.call();
					h.scheduler.runReady();
					assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
				}));
		all.add(unusedWithStandby(ServerPhase.IDLE, Event.RESTART, ServerPhase.STARTING_TERMINATING_THEN_CONNECT,
				(h) -> {
					h.idleWithItsSpareNotConfirmedGone();
					h.supervisor.restart();
				}));
		all.add(unused(ServerPhase.UP, Event.IDLE_DUE, ServerPhase.IDLE_STOPPING, Harness::idle));
		all.add(unused(ServerPhase.IDLE_STOPPING, Event.TERMINATED, ServerPhase.IDLE, Harness::idle));
		all.add(unused(ServerPhase.IDLE_STOPPING, Event.TERMINATED, ServerPhase.FAILED, (h) -> {
			h.connector.terminationConfirmed = false;
			h.idle();
		}));
		all.add(unused(ServerPhase.IDLE_STOPPING, Event.CALLED, ServerPhase.IDLE_STOPPING_THEN_CONNECT, (h) -> {
			h.connector.duringTermination = h::call;
			h.idle();
			assertThat(h.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
			assertThat(h.connector.maxAlive).isEqualTo(1);
		}));
		all.add(unused(ServerPhase.IDLE_STOPPING, Event.RESTART, ServerPhase.IDLE_STOPPING_THEN_CONNECT, (h) -> {
			h.connector.duringTermination = h.supervisor::restart;
			h.idle();
		}));
		all.add(unused(ServerPhase.IDLE_STOPPING_THEN_CONNECT, Event.TERMINATED, ServerPhase.STARTING_CONNECTING,
				(h) -> {
					h.connector.duringTermination = h::call;
					h.idle();
				}));
		all.add(unused(ServerPhase.IDLE_STOPPING_THEN_CONNECT, Event.TERMINATED, ServerPhase.FAILED, (h) -> {
			h.connector.duringTermination = () -> {
				h.call();
				h.connector.terminationConfirmed = false;
			};
			h.idle();
		}));
		all.add(unused(ServerPhase.IDLE_STOPPING_THEN_CONNECT, Event.RESTART, ServerPhase.IDLE_STOPPING_THEN_CONNECT,
				(h) -> {
					h.connector.duringTermination = () -> {
						h.call();
						h.supervisor.restart();
					};
					h.idle();
				}));
		all.add(unused(ServerPhase.IDLE, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.supervisor.start();
			h.supervisor.stop();
		}));
		all.add(unused(ServerPhase.IDLE_STOPPING, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.connector.duringTermination = h.supervisor::stop;
			h.idle();
		}));
		all.add(unused(ServerPhase.IDLE_STOPPING_THEN_CONNECT, Event.STOP, ServerPhase.STOPPED, (h) -> {
			h.connector.duringTermination = () -> {
				h.call();
				h.supervisor.stop();
			};
			h.idle();
		}));
		return all;
	}

	private static Scenario on(ServerPhase from, Event event, ServerPhase to, Consumer<Harness> script) {
		return new Scenario(new Edge(from, event, to), true, script, false, null, ATTEMPTS, false);
	}

	private static Scenario unused(ServerPhase from, Event event, ServerPhase to, Consumer<Harness> script) {
		return new Scenario(new Edge(from, event, to), true, script, false, null, ATTEMPTS, true);
	}

	private static Scenario unusedWithStandby(ServerPhase from, Event event, ServerPhase to, Consumer<Harness> script) {
		return new Scenario(new Edge(from, event, to), true, script, true, null, ATTEMPTS, true);
	}

	// A row that shares its move with another row of its phase and event.
	private static Scenario on(ServerPhase from, Event event, Guard guard, ServerPhase to, Consumer<Harness> script) {
		return new Scenario(new Edge(from, event, to), true, script, false, guard, ATTEMPTS, false);
	}

	private static Scenario withOneAttempt(ServerPhase from, Event event, Guard guard, ServerPhase to,
			Consumer<Harness> script) {
		return new Scenario(new Edge(from, event, to), true, script, false, guard, 1, false);
	}

	private static Scenario disabled(ServerPhase from, Event event, ServerPhase to, Consumer<Harness> script) {
		return new Scenario(new Edge(from, event, to), false, script, false, null, ATTEMPTS, false);
	}

	private static Scenario withStandby(ServerPhase from, Event event, ServerPhase to, Consumer<Harness> script) {
		return new Scenario(new Edge(from, event, to), true, script, true, null, ATTEMPTS, false);
	}

	/**
	 * A script that takes one row of the table: the one of its guard, if it names one.
	 */
	private record Scenario(Edge edge, boolean reconnects, Consumer<Harness> script, boolean standby,
			@Nullable Guard guard, int attempts, boolean unused) {

	}

	/**
	 * A supervisor on virtual time whose moves are recorded.
	 */
	private static final class Harness {

		final VirtualScheduler scheduler = new VirtualScheduler();

		final FakeConnector connector = new FakeConnector();

		final List<Edge> moves = new ArrayList<>();

		final List<Row> choices = new ArrayList<>();

		final List<Boolean> oldTreeAliveAtTheNextOpen = new ArrayList<>();

		final McpServerSupervisor supervisor;

		Harness(boolean reconnects, boolean standby) {
			this(reconnects, standby, ATTEMPTS, false);
		}

		// A server that is unused starts on first use, its tools in its catalog, and is
		// stopped after IDLE_TIME without a call.
		Harness(boolean reconnects, boolean standby, int attempts, boolean unused) {
			McpServerSupervisor.Builder builder = McpServerSupervisor.builder("demo", this.connector, this.scheduler);
			if (unused) {
				ToolCatalog catalog = ToolCatalog.in(catalogs(), "demo", "demo");
				catalog.keep("demo", this.connector.serverTools, null, null, this.scheduler.clock().instant());
				builder.startOnFirstUse(catalog).idleTimeout(IDLE_TIME);
			}
			this.supervisor = builder
				.reconnect(ReconnectPolicy.builder()
					.enabled(reconnects)
					.initialDelay(INITIAL)
					.maxDelay(MAX)
					.maxAttempts(attempts)
					.jitter(0)
					.cooldown(ReconnectPolicy.Cooldown.of(COOLDOWN, COOLDOWN))
					.build())
				.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
				.standby(standby)
				.build();
			this.supervisor.lifecycle().observeMoves(this.moves::add);
			this.supervisor.lifecycle().observeChoices(this.choices::add);
		}

		void up() {
			this.supervisor.start();
			this.scheduler.runReady();
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
		}

		// A call comes for the server, as CallRouter asks for a generation: it does not
		// wait for it.
		void call() {
			this.supervisor.lifecycle().view().nextGeneration(null);
		}

		// A server that starts on first use is started, then called.
		void awake() {
			this.supervisor.start();
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.IDLE);
			call();
			this.scheduler.runReady();
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
		}

		// An awake server stays unused for its idle time.
		void idle() {
			awake();
			this.scheduler.advance(IDLE_TIME);
		}

		// An awake server with a ready spare is stopped while unused: its generation's
		// tree is confirmed gone, its spare's is not.
		void idleWithItsSpareNotConfirmedGone() {
			awake();
			assertThat(this.supervisor.lifecycle().standby().readySpare()).isNotNull();
			this.connector.duringTermination = () -> this.connector.duringTermination = () -> this.connector.terminationConfirmed = false;
			this.scheduler.advance(IDLE_TIME);
			this.connector.terminationConfirmed = true;
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.IDLE);
		}

		void crash() {
			if (this.supervisor.lifecycle().phase() != ServerPhase.UP) {
				up();
			}
			this.connector.last().crash(1);
			this.scheduler.runReady();
		}

		// Fires the event while the lost generation's tree is being terminated.
		void crashAnd(Event event) {
			up();
			this.connector.duringTermination = () -> fire(event);
			crash();
		}

		void fire(Event event) {
			switch (event) {
				case RESET -> this.supervisor.reset();
				case RESTART -> this.supervisor.restart();
				case STOP -> this.supervisor.stop();
				default -> throw new IllegalArgumentException(event.name());
			}
		}

		void upAndRestart() {
			up();
			this.supervisor.restart();
		}

		void startAndRestart() {
			this.supervisor.start();
			this.supervisor.restart();
		}

		void needsAuthorization() {
			this.connector.then(Outcome.UNAUTHORIZED);
			this.supervisor.start();
			this.scheduler.runReady();
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.NEEDS_AUTHORIZATION);
		}

		void backingOff() {
			this.connector.then(Outcome.FAIL);
			this.supervisor.start();
			this.scheduler.runReady();
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.RECONNECTING_BACKING_OFF);
		}

		// Starts while the terminations of a stop still run.
		void startDuringStop() {
			up();
			this.supervisor.stop();
			this.supervisor.start();
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.STARTING_AWAITING_STOP);
		}

		// Restarts a server with a ready spare, and runs what comes during the
		// termination of the restarted generation's tree, which then cannot confirm it
		// gone: the tree is found not confirmed gone in the phase that follows.
		void whileTheRestartedTreeIsTerminatedInVain(Runnable during) {
			up();
			this.connector.duringTermination = () -> {
				during.run();
				this.connector.terminationConfirmed = false;
			};
			this.supervisor.restart();
			this.scheduler.runReady();
			this.connector.terminationConfirmed = true;
		}

		// Notes whether the first generation's tree runs when the next attempt opens.
		void watchTheOldTreeAtTheNextOpen() {
			FakeConnector.FakeConnection first = this.connector.generation(1);
			this.connector.duringOpen = () -> this.oldTreeAliveAtTheNextOpen.add(first.processAlive);
		}

		void assertTheOldTreeIsGoneAtTheNextAttempt() {
			assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
			assertThat(this.oldTreeAliveAtTheNextOpen).as("the old tree at the next attempt").containsExactly(false);
		}

		// Leaves a tree not confirmed gone behind a stop.
		void stopWithUnconfirmedTree() {
			up();
			this.connector.terminationConfirmed = false;
			this.supervisor.stop();
			this.scheduler.runReady();
			this.connector.terminationConfirmed = true;
		}

	}

}
