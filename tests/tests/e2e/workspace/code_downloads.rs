//! The downloads the dashboard offers for a code it made (`/painel/criar-qrcode`'s result):
//! every PNG size of its list, and the one-page PDF rasterised by poppler's `pdftoppm` (an
//! independent PDF reader), each decoded by `rqrr` (an independent QR decoder) to the code's
//! own payload.

use std::process::Command;

use super::support::{Person, sign_up};
use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

/// The PNG choices of the result's "Tamanho do PNG" (`webapp/src/features/qrcodes/components/
/// code-result.tsx`, `PNG_SIZES`), with the side they promise: the bare code is 80 mm square.
const PNG_SIZES: [(&str, u32, u32); 4] = [
    ("modelo=codigo&dpi=127", 400, 400),
    ("modelo=codigo&dpi=254", 800, 800),
    ("modelo=codigo&dpi=508", 1600, 1600),
    ("dpi=300", 2480, 3508),
];

/// Every code `rqrr` finds in a PNG, with the image's size.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<String>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let (w, h) = (info.width as usize, info.height as usize);
    let luma: Vec<u8> = buf[..info.buffer_size()]
        .chunks_exact(channels)
        // The files are black on white: the green channel alone tells them apart.
        .map(|px| px[channels.min(2) - 1])
        .collect();
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| luma[y * w + x]);
    let found = image
        .detect_grids()
        .into_iter()
        .filter_map(|grid| grid.decode().ok().map(|(_, text)| text))
        .collect();
    (info.width, info.height, found)
}

async fn download(app: &TestApp, path: &str) -> Vec<u8> {
    let response = app.get(path).await;
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.bytes().await.expect("body").to_vec()
}

#[tokio::test]
async fn every_png_size_and_the_pdf_the_dashboard_offers_decode_to_the_codes_payload() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "rita@bar.test", "Rita").await;
    let made = owner
        .post(
            &Person::in_account(&owner.account_id, "/qrcodes"),
            &json!({"pixKey": "caixa@bar.test", "merchantName": "Bar da Rita",
                    "merchantCity": "Olinda", "amount": "12,50", "description": "Caldinho"}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["id"].as_str().expect("id").to_owned();
    let payload = made.json["payload"].as_str().expect("payload").to_owned();

    for (query, width, height) in PNG_SIZES {
        let png = download(&app, &format!("/placas/{id}.png?{query}")).await;
        let (w, h, found) = decode_png(&png);
        assert_eq!((w, h), (width, height), "the size {query} promises");
        assert_eq!(found, std::slice::from_ref(&payload), "the PNG {query}");
    }

    let pdf = download(&app, &format!("/placas/{id}.pdf")).await;
    let dir = std::env::temp_dir().join(format!("balcao-downloads-{id}"));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("placa.pdf"), &pdf).expect("the PDF written");
    let status = Command::new("pdftoppm")
        .args(["-r", "150", "-png"])
        .arg(dir.join("placa.pdf"))
        .arg(dir.join("pagina"))
        .status()
        .expect("pdftoppm (poppler-utils) runs");
    assert!(status.success(), "pdftoppm failed");
    let pages: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "png"))
        .collect();
    assert_eq!(pages.len(), 1, "a one-page PDF");
    let (_, _, found) = decode_png(&std::fs::read(&pages[0]).expect("the page"));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found, [payload], "the PDF rasterised");
    app.stop().await;
}

/// Rasterises every page of `pdf` at 150 dpi with `pdftoppm` and decodes each, in page order.
fn decode_pdf_pages(pdf: &[u8], name: &str) -> Vec<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("balcao-batch-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("placas.pdf"), pdf).expect("the PDF written");
    let status = Command::new("pdftoppm")
        .args(["-r", "150", "-png"])
        .arg(dir.join("placas.pdf"))
        .arg(dir.join("pagina"))
        .status()
        .expect("pdftoppm (poppler-utils) runs");
    assert!(status.success(), "pdftoppm failed");
    // pdftoppm numbers the pages with zero padding (`pagina-1.png` or `pagina-01.png`): the
    // names sort in page order.
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "png"))
        .collect();
    pages.sort();
    let decoded = pages
        .iter()
        .map(|page| decode_png(&std::fs::read(page).expect("the page")).2)
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    decoded
}

#[tokio::test]
async fn a_batchs_signs_come_in_one_pdf_with_each_page_carrying_its_own_code() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "lia@feira.test", "Lia").await;
    let made = owner
        .post(
            &Person::in_account(&owner.account_id, "/qrcodes/lote"),
            &json!({"pixKey": "caixa@feira.test", "merchantName": "Barraca da Lia",
                    "merchantCity": "Belém", "lines": "Açaí;15,00\nTapioca;9,50\nSuco;7,00"}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let batch_id = made.json["batchId"].as_str().expect("batch id").to_owned();
    let codes = made.json["qrcodes"].as_array().expect("codes").clone();
    let payloads: Vec<String> = codes
        .iter()
        .map(|c| c["payload"].as_str().expect("payload").to_owned())
        .collect();
    assert_eq!(payloads.len(), 3);

    // One page per code, in the order of the lines, each decoding to its own code.
    let response = app
        .get(&format!("/placas/lote/{batch_id}.pdf?tamanho=a6&tema=azul"))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"placas-pix-lote-barraca-da-lia-a6.pdf\""
    );
    let etag = response.headers()["etag"]
        .to_str()
        .expect("an ETag")
        .to_owned();
    let pdf = response.bytes().await.expect("body").to_vec();
    let pages = decode_pdf_pages(&pdf, &batch_id);
    let expected: Vec<Vec<String>> = payloads.iter().map(|p| vec![p.clone()]).collect();
    assert_eq!(pages, expected, "each page is its own code, in line order");

    // The same batch and options again: 304.
    let again = app
        .client()
        .get(app.url(&format!("/placas/lote/{batch_id}.pdf?tamanho=a6&tema=azul")))
        .header("if-none-match", &etag)
        .send()
        .await
        .expect("request");
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // An archived code takes no payments: its page leaves the sheet (and the tag changes).
    let tapioca = codes[1]["id"].as_str().expect("id");
    let archived = owner
        .post(
            &Person::in_account(&owner.account_id, &format!("/qrcodes/{tapioca}/arquivar")),
            &json!({}),
        )
        .await;
    assert!(archived.status.is_success(), "{}", archived.text);
    let fewer = download(&app, &format!("/placas/lote/{batch_id}.pdf?tamanho=a6")).await;
    assert_eq!(
        decode_pdf_pages(&fewer, &format!("{batch_id}-b")),
        [vec![payloads[0].clone()], vec![payloads[2].clone()]]
    );

    // Not a batch, another format, an unknown option.
    let unknown = uuid::Uuid::now_v7();
    assert_eq!(
        app.get(&format!("/placas/lote/{unknown}.pdf"))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get(&format!("/placas/lote/{batch_id}.png"))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    let bad = app
        .get(&format!("/placas/lote/{batch_id}.pdf?tamanho=a3"))
        .await;
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let page = bad.text().await.unwrap_or_default();
    // The page escapes the quotes around the value typed.
    assert!(
        page.contains("O tamanho") && page.contains("a3") && page.contains("não existe"),
        "{page}"
    );
    app.stop().await;
}
