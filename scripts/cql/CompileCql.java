// Compiles every *.cql file of a folder to ELM JSON with the CQL reference translator (info.cqframework
// cql-to-elm), the way its command-line front end does: a model manager with the FHIR model info, a library manager
// reading includes from the same folder (and FHIRHelpers from the translator's own FHIR library provider). The ELM
// of every library a source includes (FHIRHelpers too) is written beside it, so an engine gets the whole set.
// Run by scripts/cql/compile.sh (java's single-file source launcher; nothing to build).
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.cqframework.cql.cql2elm.CqlCompilerException;
import org.cqframework.cql.cql2elm.CqlCompilerOptions;
import org.cqframework.cql.cql2elm.CqlTranslator;
import org.cqframework.cql.cql2elm.DefaultLibrarySourceProvider;
import org.cqframework.cql.cql2elm.LibraryBuilder;
import org.cqframework.cql.cql2elm.LibraryManager;
import org.cqframework.cql.cql2elm.ModelManager;
import org.cqframework.cql.cql2elm.model.CompiledLibrary;
import org.cqframework.cql.cql2elm.quick.FhirLibrarySourceProvider;
import org.hl7.elm.r1.Library;
import org.hl7.elm.r1.VersionedIdentifier;

public class CompileCql {
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: CompileCql <cql folder> <elm output folder>");
            System.exit(2);
        }
        Path in = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        List<Path> sources;
        try (Stream<Path> s = Files.list(in)) {
            sources = s.filter(p -> p.toString().endsWith(".cql")).sorted().collect(Collectors.toList());
        }
        CqlCompilerOptions options = new CqlCompilerOptions(
                CqlCompilerException.ErrorSeverity.Info,
                LibraryBuilder.SignatureLevel.Overloads,
                CqlCompilerOptions.Options.EnableLocators,
                CqlCompilerOptions.Options.DisableListDemotion,
                CqlCompilerOptions.Options.DisableListPromotion);
        TreeMap<String, String> elm = new TreeMap<>();
        TreeMap<String, String> versions = new TreeMap<>();
        boolean failed = false;
        // One model and library manager for the folder: FHIRHelpers and the model info are loaded once.
        ModelManager models = new ModelManager();
        LibraryManager libraries = new LibraryManager(models, options);
        libraries.getLibrarySourceLoader().registerProvider(new DefaultLibrarySourceProvider(in));
        libraries.getLibrarySourceLoader().registerProvider(new FhirLibrarySourceProvider());
        for (Path source : sources) {
            CqlTranslator translator = CqlTranslator.fromFile(source.toFile(), libraries);
            for (CqlCompilerException e : translator.getExceptions()) {
                var at = e.getLocator();
                System.err.printf("%s %s%s: %s%n", e.getSeverity(), source.getFileName(),
                        at == null ? "" : String.format(":%d:%d", at.getStartLine(), at.getStartChar()), e.getMessage());
            }
            if (!translator.getErrors().isEmpty()) {
                failed = true;
                continue;
            }
            for (CompiledLibrary compiled : libraries.getCompiledLibraries().values()) {
                Library lib = compiled.getLibrary();
                String name = lib.getIdentifier().getId();
                if (!elm.containsKey(name)) elm.put(name, CqlTranslator.convertToJson(lib));
                versions.put(name, lib.getIdentifier().getVersion());
            }
            elm.put(translator.toELM().getIdentifier().getId(), translator.toJson());
        }
        if (failed) {
            System.err.println("CQL translation failed");
            System.exit(1);
        }
        for (var e : elm.entrySet()) {
            Files.writeString(out.resolve(e.getKey() + ".json"), e.getValue().strip() + "\n", StandardCharsets.UTF_8);
            System.err.printf("wrote %s%n", out.resolve(e.getKey() + ".json"));
            // A library that came from the translator's own provider (FHIRHelpers): keep its CQL text too, so a
            // package can carry both representations of every library.
            if (!Files.exists(in.resolve(e.getKey() + ".cql"))) {
                var id = new VersionedIdentifier().withId(e.getKey()).withVersion(versions.get(e.getKey()));
                try (InputStream src = new FhirLibrarySourceProvider().getLibrarySource(id)) {
                    if (src != null) Files.write(out.resolve(e.getKey() + ".cql"), src.readAllBytes());
                }
            }
        }
    }
}
