import CShims
import DocentApp
import DocentCore
import Foundation
import ScriptConversion
import SnowballStemming
import TwoCores

/// Runs search's effects: each live request on its own thread (curl is blocking). The
/// answer goes back with its token; the reducer ignores answers to an older query, so a
/// slow request for "har" can never overwrite the results for "harbour".
struct SearchRunner: FeatureRunner {
    typealias Core = SearchFeature
    let context: RunnerContext

    func run(_ effect: SearchEffect, mailbox: Mailbox) {
        let fetcher = context.fetcher
        switch effect {
        case .autocomplete(let token, let request):
            context.background {
                let r = fetcher.fetch(request).map(\.body).mapError { LoadFailure($0.description) }
                mailbox.post(.search(.autocompleteLoaded(token: token, r)))
            }
        case .multisearch(let token, let request):
            context.background {
                let r = fetcher.fetch(request).map(\.body).mapError { LoadFailure($0.description) }
                mailbox.post(.search(.multisearchLoaded(token: token, r)))
            }
        case .buildIndex(let museum):
            // After the museum's own heavy work (the prepared copy): never both at once.
            context.heavy {
                // Chinese in either script matches both (the table is built once per run, and only
                // for a museum with Chinese text). Words are found by their stems in each language
                // too (Snowball). Two halves: search is usable with the names' words first (about
                // the time of an index without words); the transcripts' words follow as a second
                // index of the same museum (issue 31: the build goal), read on one core: on two, the
                // two builders' tables were the first start's peak (143-151 MiB against 138-143 on
                // the generated shape), and the half has no time goal (0.2 s later on one core).
                // The documents live only through the first half (the second reads the texts it
                // keeps, flat): they are not held while the transcripts' words are read.
                // Not SearchIndex's `init(app:variantsWhenChinese:…)`: through that convenience
                // init the documents were held to the end of the first half instead of let go as
                // they are folded (`make bench`: the first start's peak 168 MB against 160 MB on
                // the generated shape).
                let variants = SearchIndex.variants(for: museum.data, whenChinese: { ChineseScripts.variants })
                let names = SearchIndex(
                    documents: SearchIndex.documents(app: museum.data), source: museum, variants: variants, stemmer: SnowballStemmer.shared,
                    transcripts: false, both: TwoCores.both)
                mailbox.post(.search(.indexBuilt(BuiltIndex(names))))
                // What the first half let go goes back before the second half's builders grow.
                cs_release_free_memory()
                let whole = names.addingTranscriptWords(stemmer: SnowballStemmer.shared, both: nil)
                mailbox.post(.search(.indexBuilt(BuiltIndex(whole))))
            }
        }
    }
}

extension SearchFeature: RunsInShell {
    typealias Runner = SearchRunner
}
