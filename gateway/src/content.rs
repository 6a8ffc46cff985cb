//! The site's written content: articles, institutional pages and the FAQ, kept as Markdown files
//! with front matter under `gateway/content/` and embedded in the binary at build time.
//!
//! Front matter is the block between two `---` lines at the top of a file, with `key: value`
//! lines: `title`, `description`, `date` (YYYY-MM-DD) and, for articles, `related: [slug, …]`.

use std::sync::LazyLock;

use include_dir::{Dir, include_dir};
use pulldown_cmark::{Options, Parser, html};

static CONTENT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/content");

/// Words read per minute, for the reading-time estimate.
const WORDS_PER_MINUTE: usize = 200;

/// One article of the blog.
#[derive(Debug, Clone)]
pub struct Article {
    /// Path without the leading slash; the article lives at `/{slug}`.
    pub slug: String,
    /// Page title.
    pub title: String,
    /// Meta description.
    pub description: String,
    /// Publication date, `YYYY-MM-DD`.
    pub date: String,
    /// Slugs of related articles.
    pub related: Vec<String>,
    /// The body rendered to HTML.
    pub html: String,
    /// Words in the body.
    pub words: usize,
}

impl Article {
    /// Estimated reading time in whole minutes, at least one.
    pub fn reading_minutes(&self) -> usize {
        self.words.div_ceil(WORDS_PER_MINUTE).max(1)
    }

    /// The date as pt-BR prose, e.g. "21 de novembro de 2026".
    pub fn date_pt_br(&self) -> String {
        date_pt_br(&self.date)
    }
}

/// An institutional page (privacy, terms, about, API) or the home page's copy.
#[derive(Debug, Clone)]
pub struct Page {
    /// File stem, e.g. `privacidade`.
    pub name: String,
    /// Page title.
    pub title: String,
    /// Meta description.
    pub description: String,
    /// Last update, `YYYY-MM-DD`.
    pub date: String,
    /// The body as Markdown, before token substitution.
    pub markdown: String,
}

impl Page {
    /// The body rendered to HTML, with `{{email_contato}}` and `{{site_url}}` filled in.
    pub fn html(&self, site: &crate::html::Site) -> String {
        render_markdown(&substitute(&self.markdown, site))
    }

    /// The last-update date as pt-BR prose.
    pub fn date_pt_br(&self) -> String {
        date_pt_br(&self.date)
    }
}

/// One question of the FAQ with its answer rendered to HTML.
#[derive(Debug, Clone)]
pub struct Question {
    /// The question.
    pub question: String,
    /// The answer as HTML.
    pub answer_html: String,
    /// The answer as plain text, for FAQPage structured data.
    pub answer_text: String,
}

/// Every article, newest first.
pub static ARTICLES: LazyLock<Vec<Article>> = LazyLock::new(|| {
    let dir = CONTENT
        .get_dir("artigos")
        .expect("gateway/content/artigos is embedded");
    let mut articles: Vec<Article> = dir
        .files()
        .filter(|f| f.path().extension().is_some_and(|e| e == "md"))
        .map(|f| {
            let slug = f
                .path()
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_owned();
            let text = f.contents_utf8().unwrap_or_default();
            parse_article(&slug, text).unwrap_or_else(|e| panic!("artigos/{slug}.md: {e}"))
        })
        .collect();
    articles.sort_by(|a, b| b.date.cmp(&a.date).then_with(|| a.slug.cmp(&b.slug)));
    articles
});

/// Looks an article up by slug.
pub fn article(slug: &str) -> Option<&'static Article> {
    ARTICLES.iter().find(|a| a.slug == slug)
}

/// Every institutional page, read once.
static PAGES: LazyLock<Vec<Page>> = LazyLock::new(|| {
    let dir = CONTENT
        .get_dir("paginas")
        .expect("gateway/content/paginas is embedded");
    dir.files()
        .filter(|f| f.path().extension().is_some_and(|e| e == "md"))
        .map(|f| {
            let name = f
                .path()
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            parse_page(name, f.contents_utf8().unwrap_or_default())
                .unwrap_or_else(|e| panic!("paginas/{name}.md: {e}"))
        })
        .collect()
});

/// An institutional page by file stem (`privacidade`, `termos-de-uso`, `sobre-nos`, `api-pix`,
/// `duvidas`, `inicio`).
pub fn page(name: &str) -> Option<&'static Page> {
    PAGES.iter().find(|p| p.name == name)
}

fn parse_page(name: &str, text: &str) -> Result<Page, String> {
    let (front, body) = split_front_matter(text)?;
    Ok(Page {
        name: name.to_owned(),
        title: front.get("title").ok_or("falta `title`")?,
        description: front.get("description").ok_or("falta `description`")?,
        date: front.get("date").unwrap_or_default(),
        markdown: body.to_owned(),
    })
}

/// The FAQ, in the order written; the home page shows the first six.
pub static FAQ: LazyLock<Vec<Question>> = LazyLock::new(|| {
    page("duvidas")
        .map(|p| questions(&p.markdown))
        .unwrap_or_default()
});

/// Splits a Markdown body into `## Question` sections.
pub fn questions(markdown: &str) -> Vec<Question> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in markdown.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            if let Some((q, a)) = current.take() {
                out.push(question(q, &a));
            }
            current = Some((heading.trim().to_owned(), String::new()));
        } else if let Some((_, answer)) = current.as_mut() {
            answer.push_str(line);
            answer.push('\n');
        }
    }
    if let Some((q, a)) = current {
        out.push(question(q, &a));
    }
    out
}

fn question(question: String, answer: &str) -> Question {
    Question {
        question,
        answer_html: render_markdown(answer),
        answer_text: plain_text(answer),
    }
}

/// Renders Markdown to HTML (tables, strikethrough; raw HTML in the source is escaped as text).
pub fn render_markdown(markdown: &str) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SMART_PUNCTUATION;
    // Content is ours, but raw HTML is still turned into text so a typo cannot break a page.
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        pulldown_cmark::Event::Html(text) | pulldown_cmark::Event::InlineHtml(text) => {
            pulldown_cmark::Event::Text(text)
        }
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// The text of a Markdown fragment without its markup.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::new();
    for event in Parser::new(markdown) {
        match event {
            pulldown_cmark::Event::Text(t) | pulldown_cmark::Event::Code(t) => out.push_str(&t),
            pulldown_cmark::Event::SoftBreak | pulldown_cmark::Event::HardBreak => out.push(' '),
            pulldown_cmark::Event::End(pulldown_cmark::TagEnd::Paragraph) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn substitute(markdown: &str, site: &crate::html::Site) -> String {
    let controller = &site.controller;
    let identified = match &controller.cnpj {
        Some(cnpj) => format!("{}, inscrito no CNPJ {cnpj}", controller.name),
        None => controller.name.clone(),
    };
    markdown
        .replace("{{email_contato}}", &site.contact_email)
        .replace("{{site_url}}", &site.url)
        .replace("{{controlador}}", &identified)
        .replace("{{encarregado}}", &controller.dpo_contact)
}

/// Front matter as read: the values of the known keys.
#[derive(Debug, Default)]
struct FrontMatter(Vec<(String, String)>);

impl FrontMatter {
    fn get(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }
}

fn split_front_matter(text: &str) -> Result<(FrontMatter, &str), String> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or("falta o bloco de front matter")?;
    let end = rest
        .find("\n---")
        .ok_or("o front matter não termina com ---")?;
    let (block, body) = rest.split_at(end);
    let body = body
        .trim_start_matches("\n---")
        .trim_start_matches(['\r', '\n']);
    let mut front = FrontMatter::default();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("linha sem ':' no front matter: {line}"))?;
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .map(|v| v.replace("\\\"", "\""))
            .unwrap_or_else(|| value.to_owned());
        front.0.push((key.trim().to_owned(), value));
    }
    Ok((front, body))
}

fn parse_article(slug: &str, text: &str) -> Result<Article, String> {
    let (front, body) = split_front_matter(text)?;
    let required = |key: &str| {
        front
            .get(key)
            .filter(|v| !v.is_empty())
            .ok_or(format!("falta `{key}`"))
    };
    let related = required("related")?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|s| {
            s.trim()
                .trim_matches('"')
                .trim_start_matches('/')
                .to_owned()
        })
        .filter(|s| !s.is_empty())
        .collect();
    Ok(Article {
        slug: slug.to_owned(),
        title: required("title")?,
        description: required("description")?,
        date: required("date")?,
        related,
        html: render_markdown(body),
        words: plain_text(body).split_whitespace().count(),
    })
}

fn date_pt_br(date: &str) -> String {
    const MONTHS: [&str; 12] = [
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ];
    let mut parts = date.splitn(3, '-');
    let (Some(year), Some(month), Some(day)) = (parts.next(), parts.next(), parts.next()) else {
        return date.to_owned();
    };
    let Some(month) = month
        .parse::<usize>()
        .ok()
        .and_then(|m| MONTHS.get(m.wrapping_sub(1)))
    else {
        return date.to_owned();
    };
    format!("{} de {month} de {year}", day.trim_start_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_values_are_read_without_their_quotes() {
        let (front, body) =
            split_front_matter("---\ntitle: \"Olá: mundo\"\ndate: 2026-01-02\n---\n\n## Corpo\n")
                .unwrap();
        assert_eq!(front.get("title").as_deref(), Some("Olá: mundo"));
        assert_eq!(front.get("date").as_deref(), Some("2026-01-02"));
        assert_eq!(body, "## Corpo\n");
    }

    #[test]
    fn a_file_without_front_matter_is_refused() {
        assert!(split_front_matter("## Só corpo").is_err());
    }

    #[test]
    fn raw_html_in_markdown_is_escaped() {
        let html = render_markdown("texto <script>alert(1)</script>");
        assert!(!html.contains("<script>"), "{html}");
    }

    #[test]
    fn dates_are_written_in_portuguese() {
        assert_eq!(date_pt_br("2026-03-05"), "5 de março de 2026");
    }

    #[test]
    fn questions_are_split_on_second_level_headings() {
        let faq = questions("## É grátis?\nSim.\n\n## Preciso de conta?\nNão.\n");
        assert_eq!(faq.len(), 2);
        assert_eq!(faq[1].question, "Preciso de conta?");
        assert_eq!(faq[1].answer_text, "Não.");
    }

    #[test]
    fn every_article_has_its_metadata_and_related_articles_exist() {
        assert_eq!(ARTICLES.len(), 24, "there are exactly 24 articles");
        assert!(
            page("privacidade").is_some() && page("inicio").is_some(),
            "pages parse"
        );
        for article in ARTICLES.iter() {
            assert!(
                article.title.chars().count() <= 70,
                "{}: title too long",
                article.slug
            );
            assert!(!article.description.is_empty(), "{}", article.slug);
            assert!(
                (700..=1600).contains(&article.words),
                "{}: {} words",
                article.slug,
                article.words
            );
            for related in &article.related {
                assert!(
                    super::article(related).is_some(),
                    "{}: unknown related {related}",
                    article.slug
                );
            }
        }
    }
}
