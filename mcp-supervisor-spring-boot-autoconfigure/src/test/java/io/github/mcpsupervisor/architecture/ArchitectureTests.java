package io.github.mcpsupervisor.architecture;

import java.time.Clock;
import java.time.Instant;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;

/**
 * Rules that mirror Spring Boot's own: final auto-configurations with package-private
 * bean methods, no package cycles, a supervisor free of web, actuator and transport
 * types, transport kinds that do not know each other, and an auto-configuration that
 * nothing else depends on.
 */
class ArchitectureTests {

	// the core's test jar is on this module's test class path: its fixtures are not
	// rules' subjects
	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption((location) -> !location.contains("-tests.jar"))
		.importPackages("io.github.mcpsupervisor");

	private static final String STDIO = "io.github.mcpsupervisor.transport.internal.stdio..";

	private static final String HTTP = "io.github.mcpsupervisor.transport.internal.http..";

	@Test
	void autoConfigurationsArePublicFinal() {
		ArchRuleDefinition.classes()
			.that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.bePublic()
			.andShould()
			.haveModifier(JavaModifier.FINAL)
			.check(CLASSES);
	}

	@Test
	void autoConfigurationsHaveNoPublicMembers() {
		ArchRuleDefinition.methods()
			.that()
			.areDeclaredInClassesThat()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.notBePublic()
			.check(CLASSES);
	}

	@Test
	void packagesHaveNoCycles() {
		SlicesRuleDefinition.slices()
			.matching("io.github.mcpsupervisor.(*)..")
			.should()
			.beFreeOfCycles()
			.check(CLASSES);
	}

	@Test
	void subPackagesHaveNoCycles() {
		SlicesRuleDefinition.slices().matching("io.github.mcpsupervisor.(**)").should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void theStdioAndHttpTransportsDoNotKnowEachOther() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage(STDIO)
			.should()
			.dependOnClassesThat()
			.resideInAPackage(HTTP)
			.check(CLASSES);
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage(HTTP)
			.should()
			.dependOnClassesThat()
			.resideInAPackage(STDIO)
			.check(CLASSES);
	}

	@Test
	void whatTheTransportsShareKnowsNeitherKind() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.mcpsupervisor.transport.internal")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(STDIO, HTTP)
			.check(CLASSES);
	}

	@Test
	void onlyTheAutoConfigurationKnowsTheAutoConfiguration() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideOutsideOfPackage("io.github.mcpsupervisor.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.github.mcpsupervisor.autoconfigure..")
			.check(CLASSES);
	}

	@Test
	void theInternalHelpersKnowNothingElseOfTheProject() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.mcpsupervisor.internal..")
			.should()
			.dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.github.mcpsupervisor..")
				.and(JavaClass.Predicates.resideOutsideOfPackage("io.github.mcpsupervisor.internal..")))
			.check(CLASSES);
	}

	@Test
	void theSupervisorKnowsNeitherTransportsNorSpringAiNorWebNorActuator() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.mcpsupervisor.supervisor..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.mcpsupervisor.transport..", "io.github.mcpsupervisor.tool..",
					"io.github.mcpsupervisor.autoconfigure..", "io.github.mcpsupervisor.actuate..",
					"io.github.mcpsupervisor.metrics..", "io.github.mcpsupervisor.event..",
					"io.github.mcpsupervisor.client..", "org.springframework.ai..", "org.springframework.web..",
					"org.springframework.boot.actuate..", "org.springframework.http..")
			.check(CLASSES);
	}

	@Test
	void theSupervisorNeitherSleepsNorReadsTheSystemClock() {
		// only the production scheduler may: everything else runs on injected time
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.mcpsupervisor.supervisor..")
			.and()
			.doNotHaveSimpleName("ThreadPoolSupervisorScheduler")
			.should()
			.callMethod(Thread.class, "sleep", long.class)
			.orShould()
			.callMethod(System.class, "currentTimeMillis")
			.orShould()
			.callMethod(System.class, "nanoTime")
			.orShould()
			.callMethod(Instant.class, "now")
			.orShould()
			.callMethod(Clock.class, "systemUTC")
			.orShould()
			.callMethod(Clock.class, "systemDefaultZone")
			.orShould()
			.callMethodWhere(JavaCall.Predicates.target(HasName.Predicates.name("now"))
				.and(JavaCall.Predicates
					.target(HasOwner.Predicates.With.owner(JavaClass.Predicates.resideInAPackage("java.time")))))
			.check(CLASSES);
	}

}
