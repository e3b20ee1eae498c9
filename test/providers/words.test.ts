/**
 * The word checks of on-screen text (src/providers/vision/words.ts, languages.ts, ocr.ts): words a recogniser ran
 * together, the share of a line in English words, the language of short lines, and lines that are no words.
 * Pure functions over the word list of the npm package; quick.
 */
import { describe, expect, it } from "vitest";
import { languageOf, persianLetters, westernModels } from "../../src/providers/vision/languages.js";
import {
  choose,
  described,
  droppedCharacters,
  paddleIsSure,
  readsAsWords,
  stacked,
  tesseractReading,
} from "../../src/providers/vision/ocr.js";
import { knownLetterShare, spaceGluedWords } from "../../src/providers/vision/words.js";

describe("words run together", () => {
  it("spaces English words a recogniser glued, at case changes and by the word list", () => {
    expect(spaceGluedWords("Left Button for selection.Enterkeyforconfirm.")).toBe("Left Button for selection. Enter key for confirm.");
    expect(spaceGluedWords("pressEntertoconfirm")).toBe("press Enter to confirm");
    expect(spaceGluedWords("Readthefullstoryhere,tapthelink")).toBe("Read the full story here, tap the link");
    expect(spaceGluedWords("Don'tbuy a robot vacuum")).toBe("Don't buy a robot vacuum");
    expect(spaceGluedWords("HowI paid off$30k in 2 years")).toBe("How I paid off $30k in 2 years");
    expect(spaceGluedWords("You won\u2019tbelieve what this cost")).toBe("You won\u2019t believe what this cost");
    expect(spaceGluedWords("Google Pixel9")).toBe("Google Pixel 9");
    expect(spaceGluedWords("My top10 tips, part2")).toBe("My top 10 tips, part 2");
    expect(spaceGluedWords("Meet Pixel9.")).toBe("Meet Pixel 9.");
    expect(spaceGluedWords("PressEnter to copy")).toBe("Press Enter to copy");
    expect(spaceGluedWords("mitGemini Live")).toBe("mit Gemini Live");
    expect(spaceGluedWords("thebestMovieEver")).toBe("the best Movie Ever");
    expect(spaceGluedWords("SelectaROIandthenpressSPACEorENTERbutton")).toBe("Select a ROI and then press SPACE or ENTER button");
  });

  it("leaves words, names and handles alone", () => {
    for (const line of [
      "Copyright 2013 Brandon Castellano",
      "Kubernetes",
      "Sukehiro",
      "www.bcastell.com",
      "@jc32d0604",
      "@travel22",
      "#summer22",
      "site2.com",
      "IPv6 and float32",
      "Use code SAVE20",
      "HTML5",
      "understanding",
      "O'Donnell's",
      "Don't",
      // Names in camel case: their pieces are rare words or none.
      "The most important difference between Text and TexText",
      "TikTok",
      "GitHub",
      "ChatGPT",
      "WhatsApp",
      // Words of other languages that English pieces would cut up: a lone lower-case "i" is no English word ("At i vida
      // des", "Press i one"), and two rare pieces are a guess ("An wen dung en").
      "Atividades",
      "Actividades",
      "Pressione",
      "Anwendungen",
    ])
      expect(spaceGluedWords(line)).toBe(line);
  });
});

describe("English words in a line", () => {
  it("weighs the letters of known words", () => {
    expect(knownLetterShare("I'm going grocery shopping. You want some milk?")).toBe(1);
    expect(knownLetterShare("STAEPIR")).toBe(0);
    expect(knownLetterShare("OHA HEOCABAEMA")).toBeLessThan(0.5);
    expect(knownLetterShare("10:00")).toBeNull();
    // A name in camel case, as code and paths write them, by its pieces.
    expect(knownLetterShare("testFolder/subFolder")).toBe(1);
  });

  it("gives short English lines their language, and others theirs", () => {
    expect(languageOf("Yes?")).toBe("en");
    expect(languageOf("Left Button for selection.")).toBe("en");
    expect(languageOf("I've decided, Rem.")).toBe("en");
    expect(languageOf("Tôi yêu Việt Nam")).toBe("vi");
    expect(languageOf("Tu ne vas pas croire ce qui se passe ensuite")).toBe("fr");
    expect(languageOf("Das ist der beste Trick für deinen Morgen")).toBe("de");
    expect(languageOf("NAZA")).toBeNull();
    // Letters only one language writes settle it; franc's English is no answer for a line of none of its words.
    expect(languageOf("Otevřít kalendář")).toBe("cs");
    expect(languageOf("¡Genial!, gracias de nuevo.")).toBe("es");
    expect(languageOf("František Novák")).toBeNull();
  });

  it("tells Persian and Urdu from Arabic by their letters, or by franc with kaf and yeh in either form; Tamil by its script", () => {
    expect(languageOf("هذه أفضل طريقة لتعلم اللغة")).toBe("ar");
    // Persian as tesseract's Persian model writes it (its own kaf and yeh), and with letters Arabic has not (گ).
    expect(languageOf("سلام به کانال ما خوش آمدید")).toBe("fa");
    expect(languageOf("بگو")).toBe("fa");
    // Persian as tesseract's Arabic model writes it (Arabic's yeh and alef maksura): franc knows the words.
    expect(languageOf("اين بهترين راه براى يادكيرى زبان است")).toBe("fa");
    expect(languageOf("یہ بہت اچھا ہے")).toBe("ur");
    expect(languageOf("வணக்கம்")).toBe("ta");
  });

  it("writes a Persian line's kaf and yeh as Persian does, whichever model read it", () => {
    expect(persianLetters("اين بهترين راه براى يادكيرى")).toBe("این بهترین راه برای یادکیری");
    expect(persianLetters("سلام")).toBe("سلام");
  });

  it("takes a Latin line of no English word for a pattern or look-alikes, unless it is another Latin language", () => {
    expect(readsAsWords("NAZA", null)).toBe(false);
    expect(readsAsWords("E F *", "en")).toBe(false);
    // A scream drawn on a meme, whichever model read it: one letter over and over is a sound, in no script's words.
    expect(readsAsWords("аааааааааааааааааааааааааааа", "ru")).toBe(false);
    expect(readsAsWords("哈哈哈", "zh")).toBe(true);
    expect(readsAsWords("하하하", "ko")).toBe(true);
    // Devanagari's vowel signs are marks: "दादा दादी" is four of one letter to \p{L}, and a word.
    expect(readsAsWords("दादा दादी", "hi")).toBe(true);
    expect(readsAsWords("<h1>", null)).toBe(true);
    expect(readsAsWords("OHA HEOCA3AEMA", "tr")).toBe(false);
    expect(readsAsWords("Follow for part 2", "en")).toBe(true);
    expect(readsAsWords("Esta es la mejor receta", "es")).toBe(true);
    expect(readsAsWords("КРАСОТА В МЫСЛЯХ", "ru")).toBe(true);
  });

  it("takes digits and signs alone for no words, a line with words and numbers for words", () => {
    for (const line of ["10:00", "25", "3/3", "$30"]) expect(readsAsWords(line, null), line).toBe(false);
    expect(readsAsWords("5 tips for oily skin", "en")).toBe(true);
    expect(readsAsWords("第3集", "zh")).toBe(true);
    expect(readsAsWords("夏", "zh")).toBe(true);
  });

  it("asks tesseract again unless PaddleOCR read English words surely", () => {
    expect(paddleIsSure({ text: "Enterkeyforconfirm.", confidence: 0.96 })).toBe(true);
    expect(paddleIsSure({ text: "Enter key for confirm.", confidence: 0.85 })).toBe(false);
    expect(paddleIsSure({ text: "OHA HEOCABAEMA", confidence: 0.97 })).toBe(false);
    expect(paddleIsSure({ text: "Toi yeu Viet Nam", confidence: 0.97 })).toBe(false);
  });
});

describe("Chinese and Japanese lines", () => {
  const box = (heights: number) => ({ left: 0, top: 0, right: 40 * heights, bottom: 40 });

  it("takes a Han reading with far fewer characters than its box holds for one that dropped some (kana)", () => {
    expect(droppedCharacters("眠镇静", box(11))).toBe(true);
    expect(droppedCharacters("眠り薬で鎮静しないと", box(11))).toBe(false);
    expect(droppedCharacters("没人告诉他空间早就进不去了吗", box(15))).toBe(false);
    expect(droppedCharacters("我进去帮他", box(5.5))).toBe(false);
  });

  it("writes Chinese and Japanese without the spaces tesseract sets between characters", () => {
    expect(described({ text: "早く 持っ て いけ !", confidence: 0.9 }).text).toBe("早く持っていけ !");
    expect(described({ text: "大变 ichi", confidence: 0.9 }).text).toBe("大变 ichi");
  });
});

describe("lines of one overlay", () => {
  const line = (text: string, left: number, top: number, right: number) => ({
    text,
    confidence: 0.95,
    box: { left, top, right, bottom: top + 30 },
  });

  it("joins a wrapped caption, centred or left-aligned, not the lines of a terminal", () => {
    const caption = [line("STOP SCROLLING if", 120, 400, 600), line("you run every day", 150, 440, 570)];
    expect(stacked(caption).map((l) => l.text)).toEqual(["STOP SCROLLING if you run every day"]);
    // Left-aligned, as ffmpeg's drawtext sets a wrapped overlay: "cloud" would not have fitted after "the viral".
    const wrapped = [
      line("Wait for it... I", 78, 227, 477),
      line("tried the viral", 74, 291, 487),
      line("cloud bread recipe!", 75, 353, 656),
    ];
    expect(stacked(wrapped).map((l) => l.text)).toEqual(["Wait for it... I tried the viral cloud bread recipe!"]);
    // A terminal: each line ends where its text ends, well inside the terminal's width.
    const terminal = [
      line("$ aptget install vim", 10, 10, 290),
      line("zsh: command not found: aptget", 10, 45, 430),
      line("$ fuck", 10, 80, 90),
      line("apt-get install vim [enter/ctrl+c]", 10, 115, 470),
      line("E: Could not open lock file /var/lib/dpkg/lock - open (13: Permission denied", 10, 150, 1040),
    ];
    expect(stacked(terminal).map((l) => l.text)).toEqual(terminal.map((l) => l.text));
    // Two lines of about one length in that column stay two; so does a prompt whose arrow the detector left out (it
    // starts further right, and its middle is near the next line's by chance).
    const more = [
      ...terminal,
      line("thefuck git:(master) x fuck", 55, 185, 510),
      line("apt-get install vim [enter/ctrl+c]", 10, 220, 570),
      line("Reading state information... Done", 10, 255, 556),
      line("vim is already the newest version.", 10, 290, 568),
    ];
    expect(stacked(more).map((l) => l.text)).toEqual(more.map((l) => l.text));
  });
});

describe("which reading of a line is kept", () => {
  it("takes a Cyrillic reading over PaddleOCR's Latin look-alikes, but not junk over a sure reading doubted for its mixed case", () => {
    // Real Cyrillic capitals read as Latin look-alikes give way to tesseract's Cyrillic reading, even a little less sure.
    expect(choose({ text: "MCMEX", confidence: 0.95 }, { text: "И СМЕХ", confidence: 0.7 }).text).toBe("И СМЕХ");
    expect(choose({ text: "KOTOPbIX", confidence: 0.8 }, { text: "КОТОРЫХ", confidence: 0.5 }).text).toBe("КОТОРЫХ");
    // "mit ✦ Gemini Live" in a gradient, read surely with a word run into a name; tesseract made junk of the sparkle.
    expect(choose({ text: "mitGemini Live", confidence: 0.97 }, { text: "к -$- Сет! Ц\\е", confidence: 0.55 }).text).toBe("mitGemini Live");
  });

  it("keeps tesseract's Latin reading in words of a Latin language over its Cyrillic model's about as sure junk", () => {
    // A Spanish title: its Cyrillic reading has letters no Latin one looks like, and is about as sure.
    expect(
      tesseractReading({ text: "Responder mas tarde", confidence: 0.8 }, { text: "Кезропаег таз {агае", confidence: 0.78 })?.text,
    ).toBe("Responder mas tarde");
    // Brackets around a word are no misreading.
    expect(tesseractReading({ text: "abc def", confidence: 0.8 }, { text: "[Это] жизнь", confidence: 0.78 })?.text).toBe("[Это] жизнь");
    // A Portuguese line: the Latin model's reading has Latin diacritics (á), which Cyrillic read as Latin never has;
    // its Cyrillic reading, about as sure, is look-alikes. Only a clearly surer Cyrillic reading wins over it.
    expect(tesseractReading({ text: "Acáo rápida", confidence: 0.8 }, { text: "Асао гар!аа", confidence: 0.78 })?.text).toBe("Acáo rápida");
    expect(tesseractReading({ text: "Tóp", confidence: 0.5 }, { text: "Жизнь", confidence: 0.9 })?.text).toBe("Жизнь");
    // Cyrillic capitals read as Latin look-alikes with a stray accent are still look-alikes: the Cyrillic reading wins.
    expect(tesseractReading({ text: "KPÁCOTA B MbICJIAX", confidence: 0.8 }, { text: "КРАСОТА В МЫСЛЯХ", confidence: 0.75 })?.text).toBe(
      "КРАСОТА В МЫСЛЯХ",
    );
    // A Russian caption read by the Latin model as look-alikes is still Cyrillic.
    expect(tesseractReading({ text: "KPACOTA B MbICHIAX", confidence: 0.8 }, { text: "КРАСОТА В МЫСЛЯХ", confidence: 0.75 })?.text).toBe(
      "КРАСОТА В МЫСЛЯХ",
    );
  });
});

describe("Latin lines in a language the central run does not write", () => {
  it("names the model to read them again with, from the frame's lines as the central run read them", () => {
    // German, French and Polish read by ces+eng+vie: their marks lost or mistaken, franc still knows the language.
    expect(westernModels(["Grófšere Strafen fur alle"]).models).toEqual(["deu"]);
    expect(westernModels(["Ca marche trés bien, garcon"]).models).toEqual(["fra"]);
    // Polish read by the Czech model looks Czech to franc too: Czech being close does not stop it.
    expect(westernModels(["Zazóté gesla jazn"]).models).toEqual(["pol"]);
    // Spanish and Portuguese without their marks are alike: both models, the surer reading kept.
    expect(westernModels(["Náo perca a promocáo"]).models).toEqual(["spa", "por"]);
    // The languages ranked near are judged by their word lists too: Italian, ranked close behind.
    expect(westernModels(["Náo perca a promocáo"]).near).toEqual(["spa", "por", "ita"]);
  });

  it("names none for English, Vietnamese, Czech or too few letters", () => {
    expect(westernModels(["Follow for part 2", "Link in bio"])).toEqual({ models: [], near: [] });
    expect(westernModels(["Tôi yêu Việt Nam rất nhiều"])).toEqual({ models: [], near: [] });
    expect(westernModels(["Příliš žluťoučký kůň úpěl ďábelské ódy"])).toEqual({ models: [], near: [] });
    expect(westernModels(["Hola"])).toEqual({ models: [], near: [] });
  });

  it("judges a line of another Latin language by its word list when there is one, by its language alone when not", () => {
    const german = new Set(["größere", "straßen", "für", "alle"]);
    expect(readsAsWords("Größere Straßen für alle", "de", "latin", german)).toBe(true);
    // A pattern of the picture read in German letters, franc's German: no German words.
    expect(readsAsWords("Zwo bekhel", "de", "latin", german)).toBe(false);
    expect(readsAsWords("Zwo bekhel", "de", "latin")).toBe(true);
    // English words count with the list's (a name of a product in a German line).
    expect(readsAsWords("Straßen for iPhone", "de", "latin", german)).toBe(true);
  });

  it("takes the language of the model that read a line before franc's on the line alone, letters one language writes before both", () => {
    // franc takes this Portuguese line for English; the Portuguese model read it, chosen on the frame's lines together.
    expect(languageOf("Alternando entre tarefas")).toBe("en");
    expect(described({ text: "Alternando entre tarefas", confidence: 0.9, language: "pt" }).language).toBe("pt");
    expect(described({ text: "Otevřít kalendář", confidence: 0.9, language: "pl" }).language).toBe("cs");
    // A line mostly of English words is English, whatever model read it (glued English read by the Italian model).
    expect(described({ text: "Subscribe for more", confidence: 0.9, language: "it" }).language).toBe("en");
  });

  it("gives a line that is no words of its language's list the language of another of the frame's lists whose words it is", () => {
    const lists = new Map([
      ["de", new Set(["größere", "straßen"])],
      ["es", new Set(["estaré", "allí", "en", "un"])],
      ["pl", new Set(["dzień", "dobry"])],
    ]);
    // franc's German for a short Spanish line, cut at its end.
    expect(described({ text: "Estaré allí en un segund", confidence: 0.9, language: "de" }, lists)).toMatchObject({
      language: "es",
      readsAsWords: true,
    });
    // A word of the line's language is not cut into English pieces.
    expect(described({ text: "Anwendungen starten", confidence: 0.9, language: "de" }, new Map([["de", new Set(["starten"])]])).text).toBe(
      "Anwendungen starten",
    );
    expect(described({ text: "Anwendungen starten", confidence: 0.9, language: "de" }).text).toBe("Anwendungen star ten");
    // English words count in every list alike: they take no line to the first list of the frame.
    expect(described({ text: "Watch Kowalski now", confidence: 0.9 }, lists).language).not.toBe("de");
    // franc's Polish for a pattern of the picture: words of no list of the frame.
    expect(described({ text: "Zwo bekhel", confidence: 0.9 }, lists)).toMatchObject({ language: "pl", readsAsWords: false });
  });

  it("keeps the language of the model that read a line when its letters do not settle one, and for a joined line only when one model read all", () => {
    expect(described({ text: "Größere Straßen für alle", confidence: 0.9, language: "de" })).toMatchObject({
      language: "de",
      readsAsWords: true,
    });
    expect(described({ text: "Größere Straßen für alle", confidence: 0.9 })).toMatchObject({ language: null, readsAsWords: false });
    const box = (top: number) => ({ left: 100, top, right: 500, bottom: top + 40 });
    const lines = [
      { text: "Größere Straßen", confidence: 0.9, language: "de", box: box(0) },
      { text: "für alle Städte", confidence: 0.8, language: "de", box: box(50) },
    ];
    expect(stacked(lines)).toEqual([{ text: "Größere Straßen für alle Städte", confidence: 0.8, language: "de" }]);
    expect(stacked([lines[0]!, { ...lines[1]!, language: undefined }])).toEqual([
      { text: "Größere Straßen für alle Städte", confidence: 0.8 },
    ]);
  });
});
