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
