#!/usr/bin/env python3
"""Generate Docent's fictional sample museum under SampleData/.

The Wrenfield Museum of Art is invented: its name, galleries, artists, artworks,
texts, tours, events and exhibitions are our own work. Only the *shape* of the
data follows the public AIC mobile-app format (v2 appData, see
docs/aic-data-spec.md in shared/), including its quirks (ids as numbers or
numeric strings, the misspelt `map_annontations` key, HTML entities, CRLF).

Usage:  python3 scripts/make_sampledata.py [--skip-audio]

Needs Python 3 (stdlib only) plus the command-line tools espeak-ng and lame for
the MP3 narrations. Output is deterministic: running it twice gives the same
files (the MP3s too, as long as espeak-ng and lame are the same versions).
"""

import argparse
import concurrent.futures
import datetime
import html
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "SampleData")

MUSEUM = "Wrenfield Museum of Art"
MUSEUM_ES = "Museo de Arte Wrenfield"
MUSEUM_ZH = "雷恩菲爾德美術館"

LANGS = ("en", "es", "zh-hant")
# espeak-ng voices. The plain `cmn` voice of espeak-ng 1.51 reads Chinese
# characters as pinyin spelled with English digit names ("zhe four"), so use
# the variant that speaks real Mandarin.
VOICES = {"en": "en-us", "es": "es", "zh-hant": "cmn-latn-pinyin"}
SPEED = {"en": 165, "es": 165, "zh-hant": 200}  # words per minute
IMAGE = "images/none.png"
# Artworks with a picture of their own, drawn by scripts/make-sample-pictures.py; the others
# keep IMAGE, a file that does not exist (the guide shows no picture for them).
PICTURES = {
    "Harbour at First Light": "images/harbour-at-first-light.png",
    "Night Ferry": "images/night-ferry.png",
    "Moon Jar": "images/moon-jar.png",
    "Indigo Field Coverlet": "images/indigo-field-coverlet.png",
    "Birch Wood, Evening": "images/birch-wood-evening.png",
}

# ---------------------------------------------------------------------------
# Geo registration (spec §c.2): PDF point <-> lat/lon with two anchor pairs.
# ---------------------------------------------------------------------------

ANCHOR_PIXEL_1 = "855.955,1338.365"
ANCHOR_PIXEL_2 = "1011.94,1338.365"
ANCHOR_LOCATION_1 = "41.88002009571711,-87.62398928403854"
ANCHOR_LOCATION_2 = "41.8800240897643,-87.62334823608397"
PAGE = 2400.0

MAP_WORLD = 268435456.0  # MapKit world width in map points
EARTH_EQ_RADIUS = 6378137.0
EARTH_MEAN_RADIUS = 6371000.0


def _pair(text):
    a, b = text.replace(" ", "").split(",")
    return float(a), float(b)


def merc_project(lat, lon):
    x = (lon + 180.0) / 360.0 * MAP_WORLD
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * MAP_WORLD
    return x, y


def merc_unproject(x, y):
    lon = x / MAP_WORLD * 360.0 - 180.0
    n = (0.5 - y / MAP_WORLD) * 4 * math.pi  # = ln((1+sin φ)/(1-sin φ))
    lat = math.degrees(math.asin(math.tanh(n / 2)))
    return lat, lon


def ground_distance(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_MEAN_RADIUS * math.asin(math.sqrt(h))


class Registration:
    """The two-anchor similarity transform of spec §c.2 (and its inverse)."""

    def __init__(self, pdf1, pdf2, geo1, geo2):
        m1, m2 = merc_project(*geo1), merc_project(*geo2)
        theta = math.atan2(m2[1] - m1[1], m2[0] - m1[0])
        dx, dy = pdf2[0] - pdf1[0], pdf2[1] - pdf1[1]
        # rotate the PDF displacement counter-clockwise by theta
        rx = dx * math.cos(theta) - dy * math.sin(theta)
        ry = dx * math.sin(theta) + dy * math.cos(theta)
        metres = ground_distance(geo1[0], geo1[1], geo2[0], geo2[1])
        self.east = (rx / metres, ry / metres)  # PDF vector of one metre east
        self.south = (self.east[1], -self.east[0])  # one metre south
        self.t_merc = ((m1[0] + m2[0]) / 2, (m1[1] + m2[1]) / 2)
        self.t_pdf = ((pdf1[0] + pdf2[0]) / 2, (pdf1[1] + pdf2[1]) / 2)
        t_lat, _ = merc_unproject(*self.t_merc)
        self.m_per_point = math.cos(math.radians(t_lat)) * 2 * math.pi * EARTH_EQ_RADIUS / MAP_WORLD

    def to_geo(self, x, y):
        vx, vy = x - self.t_pdf[0], y - self.t_pdf[1]
        ex, ey = self.east
        sx, sy = self.south
        east = (vx * ex + vy * ey) / (ex * ex + ey * ey)
        south = (vx * sx + vy * sy) / (sx * sx + sy * sy)
        return merc_unproject(self.t_merc[0] + east / self.m_per_point,
                              self.t_merc[1] + south / self.m_per_point)

    def to_pdf(self, lat, lon):
        mx, my = merc_project(lat, lon)
        east = (mx - self.t_merc[0]) * self.m_per_point
        south = (my - self.t_merc[1]) * self.m_per_point
        return (self.t_pdf[0] + east * self.east[0] + south * self.south[0],
                self.t_pdf[1] + east * self.east[1] + south * self.south[1])


REG = Registration(_pair(ANCHOR_PIXEL_1), _pair(ANCHOR_PIXEL_2),
                   _pair(ANCHOR_LOCATION_1), _pair(ANCHOR_LOCATION_2))


def latlon(x, y, space=False):
    lat, lon = REG.to_geo(x, y)
    sep = ", " if space else ","
    return f"{lat:.10f}{sep}{lon:.10f}"


# ---------------------------------------------------------------------------
# Building: rooms per floor, in PDF points (origin bottom-left, y up).
# ---------------------------------------------------------------------------

FLOOR_LABELS = ["LL", "1", "2", "3"]
WINGS = {  # footprint rectangles (x0, y0, x1, y1) per floor
    0: [(760, 880, 1080, 1520), (1080, 960, 1320, 1440), (1320, 860, 1660, 1540)],
    1: [(760, 880, 1080, 1520), (1080, 960, 1320, 1440), (1320, 860, 1660, 1540)],
    2: [(760, 880, 1080, 1520), (1080, 960, 1320, 1440), (1320, 860, 1660, 1540)],
    3: [(1080, 1300, 1320, 1440), (1320, 860, 1660, 1540)],
}
CORE = (1080, 1380, 1320, 1440)  # stairs, elevator and restrooms, every floor

# Galleries: key -> data. `rect` is the room outline; the gallery location is
# its centre.  nid types alternate between numbers and numeric strings and the
# floor value varies ("LL", 0, "0", ints, a string) on purpose.
GALLERIES = [
    dict(key="g10", nid=1001, title="Gallery 10", gid="24010", floor_value="LL", floor=0,
         rect=(780, 1220, 1060, 1500), label="10",
         en="Gallery 10", es="la Galería 10", zh="10號展廳"),
    dict(key="g11", nid=1002, title="Gallery 11", gid="24011", floor_value=0, floor=0,
         rect=(780, 900, 1060, 1180), label="11",
         en="Gallery 11", es="la Galería 11", zh="11號展廳"),
    dict(key="ost", nid="1003", title="Ostrander Photography Hall", gid="24013", floor_value="0",
         floor=0, rect=(1340, 1160, 1640, 1520), label="Ostrander Photography Hall",
         en="the Ostrander Photography Hall", es="la Sala de Fotografía Ostrander",
         zh="奧斯特蘭德攝影廳"),
    dict(key="g101", nid=1004, title="Gallery 101", gid="24101", floor_value=1, floor=1,
         rect=(780, 1240, 1060, 1500), label="101",
         en="Gallery 101", es="la Galería 101", zh="101號展廳"),
    dict(key="g102", nid=1005, title="Gallery 102", gid="24102", floor_value=1, floor=1,
         rect=(780, 900, 1060, 1200), label="102",
         en="Gallery 102", es="la Galería 102", zh="102號展廳"),
    dict(key="g104", nid=1006, title="Gallery 104 (Lantern Court)", gid="24104", floor_value=1,
         floor=1, rect=(1100, 980, 1300, 1360), label="104 Lantern Court",
         en="the Lantern Court (Gallery 104)", es="el Patio de la Linterna (Galería 104)",
         zh="燈籠中庭（104號展廳）"),
    dict(key="g105", nid=1007, title="Gallery 105", gid="24105", floor_value=1, floor=1,
         rect=(1340, 1180, 1640, 1520), label="105",
         en="Gallery 105", es="la Galería 105", zh="105號展廳"),
    dict(key="g201", nid=1008, title="Gallery 201", gid="24201", floor_value=2, floor=2,
         rect=(780, 1240, 1060, 1500), label="201",
         en="Gallery 201", es="la Galería 201", zh="201號展廳"),
    dict(key="g202", nid="1009", title="Gallery 202", gid="24202", floor_value=2, floor=2,
         rect=(780, 900, 1060, 1200), label="202",
         en="Gallery 202", es="la Galería 202", zh="202號展廳"),
    dict(key="g203", nid=1010, title="Gallery 203", gid="24203", floor_value="2", floor=2,
         rect=(1340, 1200, 1640, 1520), label="203",
         en="Gallery 203", es="la Galería 203", zh="203號展廳"),
    dict(key="g204", nid=1011, title="Gallery 204", gid="24204", floor_value=2, floor=2,
         rect=(1340, 880, 1640, 1160), label="204",
         en="Gallery 204", es="la Galería 204", zh="204號展廳"),
    dict(key="g301", nid=1012, title="Gallery 301", gid="24301", floor_value=3, floor=3,
         rect=(1340, 1240, 1640, 1520), label="301",
         en="Gallery 301", es="la Galería 301", zh="301號展廳"),
    dict(key="g302", nid=1013, title="Gallery 302", gid="24302", floor_value=3, floor=3,
         rect=(1340, 880, 1640, 1100), label="302",
         en="Gallery 302", es="la Galería 302", zh="302號展廳"),
    dict(key="g303", nid=1014, title="Gallery 303", gid="24303", floor_value=3, floor=3,
         rect=(1340, 1120, 1640, 1220), label="303 (closed)", closed=True,
         en="Gallery 303", es="la Galería 303", zh="303號展廳"),
]
GAL = {g["key"]: g for g in GALLERIES}

# Non-gallery rooms drawn on the floor plans: (floor, rect, label, style)
OTHER_ROOMS = [
    (0, (1100, 980, 1300, 1180), "Lower Lobby", "service"),
    (0, (1100, 1200, 1300, 1360), "Harbour Cafe", "service"),
    (0, (1340, 880, 1640, 1140), "Family Studio", "service"),
    (1, (1340, 880, 1640, 1160), "Main Lobby", "service"),
    (2, (1100, 980, 1300, 1100), "Loom Espresso Bar", "service"),
    (2, (1100, 1120, 1300, 1200), "Bridge (open to court below)", "void"),
    (2, (1100, 1240, 1300, 1360), "Members Lounge", "service"),
    (3, (1100, 1000, 1310, 1290), "Sky Terrace (outdoors)", "terrace"),
    (3, (1100, 1300, 1320, 1375), "Terrace Kitchen", "service"),
]


def centre(rect):
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)


# ---------------------------------------------------------------------------
# Artworks. Titles and transcripts may contain HTML entities on purpose; the
# spoken text is the entity-decoded transcript.
# ---------------------------------------------------------------------------

def A(gallery, numbers, title, title_es, title_zh, artist, date, medium, credit, en, es, zh,
      copyright=None, cid=None, extra=None):
    return dict(gallery=gallery, numbers=numbers, title=title, title_es=title_es,
                title_zh=title_zh, artist=artist, date=date, medium=medium, credit=credit,
                en=en, es=es, zh=zh, copyright=copyright, cid=cid, extra=extra)


ARTWORKS = [
    # --- Lower level: Gallery 10, textiles -------------------------------
    A("g10", ["101"], "Indigo Field Coverlet", "Colcha del campo índigo", "靛藍田野床罩",
      "Unknown maker|Ohio River Valley, United States, about 1840", "about 1840",
      "Cotton and wool, double weave", "Gift of the Harlan Family",
      "This coverlet was woven on a home loom from indigo-dyed wool. Look for the tiny star in "
      "the corner, where the weaver marked the end of her work.",
      "Esta colcha se tejió en un telar doméstico con lana teñida de índigo. Busque la pequeña "
      "estrella en la esquina, donde la tejedora marcó el final de su trabajo.",
      "這條床罩是用靛藍染色的羊毛在家用織布機上織成的。請留意角落裡的小星星，那是織工標記作品完成的地方。",
      cid=87001),
    A("g10", ["102"], "Salt &amp; Ember", "Sal y brasa", "鹽與餘燼",
      "Priya Raman|British, born India, 1971", "2016", "Hand-dyed silk and scorched linen",
      "Purchased with funds from the Contemporary Circle",
      "Priya Raman dyed these silk strips in seawater and scorched the linen edges with a "
      "candle.\r\n\r\nShe wanted the cloth to remember both the ocean and the kitchen fire.",
      "Priya Raman tiñó estas tiras de seda con agua de mar y quemó los bordes de lino con una "
      "vela.\r\n\r\nQuería que la tela recordara tanto el océano como el fuego de la cocina.",
      "普莉雅·拉曼用海水染製這些絲綢條，並用蠟燭燒灼亞麻布的邊緣。\r\n\r\n她希望這塊布同時記住海洋與廚房的爐火。",
      copyright="© 2016 Priya Raman", cid=87002),
    A("g10", ["103"], "Sampler with Lighthouse", "Dechado con faro", "燈塔刺繡樣本",
      "Eliza Marwood|English, 1812–1889", "1823", "Silk embroidery on linen",
      "Bequest of Dorothy Fenwick",
      "Eliza Marwood stitched this sampler when she was eleven years old. Next to the lighthouse "
      "she embroidered the alphabet and a short prayer for sailors.",
      "Eliza Marwood bordó este dechado cuando tenía once años. Junto al faro bordó el alfabeto "
      "y una breve oración por los marineros.",
      "伊萊莎·馬伍德十一歲時繡了這幅刺繡樣本。她在燈塔旁邊繡上了字母表和一段為水手祈禱的短文。"),
    A("g10", ["104"], "Festival Banner with Cranes", "Estandarte festivo con grullas",
      "仙鶴節慶旗幟", "Unknown maker|Japan, 19th century", "1800s",
      "Painted and resist-dyed cotton", "Gift of Mr. and Mrs. Alden Royce",
      "Banners like this one were raised outside homes during spring festivals. The two cranes "
      "stand for a long and happy life.",
      "Estandartes como este se izaban frente a las casas durante las fiestas de primavera. Las "
      "dos grullas representan una vida larga y feliz.",
      "這類旗幟會在春季節慶時懸掛在住家門外。兩隻仙鶴象徵長壽與幸福。"),
    # --- Lower level: Gallery 11, ceramics ---------------------------------
    A("g11", ["105"], "Moon Jar", "Jarra luna", "月亮罐",
      "Yun Seo-ha|Korean, born 1966", "2009", "Porcelain with clear glaze", "Gift of the artist",
      "Yun Seo-ha throws each half of her moon jars separately and joins them while the clay is "
      "still soft. The slight lean you see is there on purpose.",
      "Yun Seo-ha modela cada mitad de sus jarras luna por separado y las une mientras la "
      "arcilla aún está blanda. La ligera inclinación que ve es intencionada.",
      "尹瑞夏分別拉坯製作月亮罐的上下兩半，趁陶土還柔軟時將它們接合。您看到的微微傾斜是她刻意保留的。",
      copyright="© Yun Seo-ha", cid=87005),
    A("g11", ["106"], "Teapot in the Form of a Fish", "Tetera en forma de pez", "魚形茶壺",
      "Sato Kiyomi|Japanese, 1889–1960", "1932", "Glazed stoneware",
      "Wrenfield Museum Purchase Fund",
      "This teapot swims! Tea pours out of the fish&#039;s open mouth, and the lid is shaped "
      "like a wave.",
      "¡Esta tetera nada! El té sale por la boca abierta del pez, y la tapa tiene forma de ola.",
      "這個茶壺會游泳！茶從魚張開的嘴裡倒出來，壺蓋則做成了海浪的形狀。", cid=87006),
    A("g11", ["107"], "Storage Jar with Ash Glaze", "Tinaja con vidriado de ceniza",
      "自然落灰釉儲物罐", "Unknown maker|Japan, 17th century", "1600s",
      "Stoneware with natural ash glaze", "Gift of Rowena and Peter Lisle",
      "Nobody painted this jar. The green streaks formed when wood ash from the kiln fire melted "
      "onto the hot clay.",
      "Nadie pintó esta jarra. Las vetas verdes se formaron cuando la ceniza de la leña del horno "
      "se fundió sobre la arcilla caliente.",
      "這個罐子沒有人為它上彩。綠色的條紋是窯中木柴的灰燼落在高溫陶土上熔化而成的。"),
    A("g11", ["108"], "Blue Harbour Platter", "Fuente azul del puerto", "藍色港口大盤",
      "Lantern Lane Pottery|Bristol, England, about 1760", "about 1760",
      "Tin-glazed earthenware", "Gift of Margaret Oyelaran",
      "Potters in Bristol copied Chinese porcelain with this cheaper earthenware. Here they added "
      "a local touch: ships sailing into their own harbour.",
      "Los alfareros de Bristol imitaban la porcelana china con esta loza más barata. Aquí "
      "añadieron un toque local: barcos que entran en su propio puerto.",
      "布里斯托的陶工用這種較便宜的陶器仿製中國瓷器。他們在這裡加入了本地特色：駛入自家港口的船隻。"),
    # --- Lower level: Ostrander Photography Hall ---------------------------
    A("ost", ["109"], "Net Menders at the Pier", "Remendadores de redes en el muelle",
      "碼頭上的補網人", "Tomasz Orlik|Polish, 1902–1977", "1936", "Gelatin silver print",
      "Ostrander Photography Fund",
      "Tomasz Orlik waited on the pier for hours until the fog lifted. The three fishermen never "
      "noticed him, so their hands keep working in the picture.",
      "Tomasz Orlik esperó en el muelle durante horas hasta que se levantó la niebla. Los tres "
      "pescadores nunca lo vieron, así que sus manos siguen trabajando en la foto.",
      "托馬什·奧里克在碼頭上等了好幾個小時，直到霧氣散去。三位漁夫從未注意到他，所以他們的雙手在照片中一直忙碌著。",
      copyright="© Estate of Tomasz Orlik", cid=87009),
    A("ost", ["110"], "Night Ferry", "Transbordador nocturno", "夜間渡輪",
      "Tomasz Orlik|Polish, 1902–1977", "1948", "Gelatin silver print",
      "Ostrander Photography Fund",
      "For this photograph Orlik left the shutter open for a full minute. The moving ferry became "
      "a ribbon of light across the dark water.",
      "Para esta fotografía, Orlik dejó el obturador abierto durante un minuto entero. El "
      "transbordador en movimiento se convirtió en una cinta de luz sobre el agua oscura.",
      "拍攝這張照片時，奧里克讓快門整整開了一分鐘。行駛中的渡輪化成了一條橫越黑暗水面的光帶。",
      copyright="© Estate of Tomasz Orlik", cid=87010),
    A("ost", ["111"], "Self-Portrait in a Shop Window", "Autorretrato en un escaparate",
      "櫥窗中的自拍像", "Ada Kessling|American, 1921–2003", "1957", "Gelatin silver print",
      "Gift of the Kessling Trust",
      "Ada Kessling rarely turned the camera on herself. Here she appears only as a reflection, "
      "floating among hats and gloves in a shop window.",
      "Ada Kessling rara vez se fotografiaba a sí misma. Aquí aparece solo como un reflejo, "
      "flotando entre sombreros y guantes en un escaparate.",
      "艾達·凱斯林很少把鏡頭對準自己。在這裡，她只以倒影的形式出現，漂浮在櫥窗裡的帽子和手套之間。",
      copyright="© Ada Kessling Trust"),
    A("ost", ["112"], "Heron, Early Morning", "Garza, de madrugada", "清晨的蒼鷺",
      "Mireille Dufort|French, born 1949", "1994", "Inkjet print",
      "Gift of Jean and Hollis Barrow",
      "Can you find the heron? It stands so still in the reeds that it almost disappears. "
      "Mireille Dufort took this picture from a rowing boat.",
      "¿Encuentra la garza? Está tan quieta entre los juncos que casi desaparece. Mireille "
      "Dufort tomó esta foto desde un bote de remos.",
      "你能找到那隻蒼鷺嗎？牠靜靜地站在蘆葦叢中，幾乎看不見。米瑞爾·杜福爾是在一艘划艇上拍下這張照片的。",
      copyright="© Mireille Dufort"),
    # --- Floor 1: Gallery 101, harbour painting ---------------------------
    A("g101", ["201"], "Harbour at First Light", "Puerto con la primera luz", "晨光中的港口",
      "Mara Velden|Dutch, 1871–1934", "1904", "Oil on canvas", "Gift of Cornelia Ashby",
      "Mara Velden painted this harbour at dawn, before the fishing boats went out.\r\n\r\nShe "
      "used only five colours, yet the sky seems to glow from within.",
      "Mara Velden pintó este puerto al amanecer, antes de que salieran los barcos de "
      "pesca.\r\n\r\nUsó solo cinco colores y, aun así, el cielo parece brillar desde dentro.",
      "瑪拉·費爾登在黎明時分、漁船出海之前畫下了這座港口。\r\n\r\n她只用了五種顏色，天空卻彷彿由內而外地發光。",
      cid=87013),
    A("g101", ["202"], "The Lighthouse Keeper&#039;s Daughter", "La hija del farero",
      "燈塔看守人的女兒", "Mara Velden|Dutch, 1871–1934", "1909", "Oil on canvas",
      "Gift of Cornelia Ashby",
      "The girl in this painting is Velden&#039;s niece. She holds a lantern that lights her "
      "face, while the storm outside stays a deep, cold blue.",
      "La niña de este cuadro es la sobrina de Velden. Sostiene un farol que le ilumina el "
      "rostro, mientras la tormenta de afuera sigue siendo de un azul profundo y frío.",
      "畫中的女孩是費爾登的姪女。她手提燈籠照亮自己的臉龐，而窗外的暴風雨依然是深沉冰冷的藍色。",
      cid=87014),
    A("g101", ["203"], "Oyster Boats Returning", "Regreso de los barcos ostreros",
      "歸航的採蠔船", "Edvard Lunde|Norwegian, 1859–1920", "1888", "Oil on canvas",
      "Bequest of Samuel T. Greaves",
      "Edvard Lunde sailed with the oyster fleet for a whole summer. Notice how the tired sailors "
      "lean against the wind as they steer for home.",
      "Edvard Lunde navegó con la flota ostrera durante todo un verano. Observe cómo los "
      "marineros cansados se inclinan contra el viento mientras ponen rumbo a casa.",
      "愛德華·倫德跟隨採蠔船隊航行了整個夏天。請注意疲憊的水手們如何迎著風傾身，駕船返航。",
      cid=87015),
    A("g101", ["204"], "Gulls over the Breakwater", "Gaviotas sobre el rompeolas",
      "防波堤上的海鷗", "Odile Marchetti|French, 1880–1951", "1912", "Oil on canvas",
      "Gift of the Marchetti Society",
      "Count the gulls! Odile Marchetti painted eleven of them, each one with just two or three "
      "quick strokes of white paint.",
      "¡Cuente las gaviotas! Odile Marchetti pintó once, cada una con solo dos o tres pinceladas "
      "rápidas de pintura blanca.",
      "數數看有幾隻海鷗！奧蒂爾·馬爾凱蒂畫了十一隻，每一隻只用了兩三筆快速的白色筆觸。"),
    # --- Floor 1: Gallery 102, northern landscapes --------------------------
    A("g102", ["205"], "Fjord in Winter", "Fiordo en invierno", "冬日峽灣",
      "Edvard Lunde|Norwegian, 1859–1920", "1897", "Oil on canvas",
      "Bequest of Samuel T. Greaves",
      "Lunde painted this fjord at twenty degrees below zero. The paint grew so stiff that he "
      "warmed his brushes inside his coat.",
      "Lunde pintó este fiordo a veinte grados bajo cero. La pintura se volvió tan rígida que "
      "calentaba los pinceles dentro de su abrigo.",
      "倫德在零下二十度的氣溫中畫下這座峽灣。顏料凍得太硬，他只好把畫筆放進外套裡取暖。"),
    A("g102", ["206"], "Rain on the Estuary", "Lluvia sobre el estuario", "河口的雨",
      "Wilhelmina Stroud|English, 1798–1862", "1841", "Watercolour on paper",
      "Gift of the Friends of Prints and Drawings",
      "Wilhelmina Stroud let wet colours run into each other to paint the rain. Because "
      "watercolour fades in daylight, this sheet is shown for only three months at a time.",
      "Wilhelmina Stroud dejó que los colores húmedos se mezclaran para pintar la lluvia. Como "
      "la acuarela se destiñe con la luz, esta hoja se expone solo tres meses seguidos.",
      "威廉明娜·斯特勞德讓濕潤的顏色彼此暈染，描繪出雨景。由於水彩在日光下會褪色，這幅作品每次只展出三個月。",
      cid=87018),
    A("g102", ["207"], "Birch Wood, Evening", "Bosque de abedules al atardecer",
      "黃昏的白樺林", "Aino Rautio|Finnish, 1868–1938", "1902", "Oil on canvas",
      "Gift of Helmi and Arthur Kask",
      "Aino Rautio painted birch trees all her life. In this evening scene the white trunks "
      "catch the last light, like candles in a dark room.",
      "Aino Rautio pintó abedules toda su vida. En esta escena del atardecer, los troncos "
      "blancos atrapan la última luz, como velas en una habitación oscura.",
      "艾諾·勞蒂奧一生都在畫白樺樹。在這幅黃昏景色中，白色的樹幹捕捉到最後一縷光線，就像黑暗房間裡的蠟燭。"),
    # --- Floor 1: Gallery 104 (Lantern Court), sculpture --------------------
    A("g104", ["208"], "Tide Table", "Tabla de mareas", "潮汐表",
      "Ines Carvalhal|Portuguese, born 1958", "2011", "Bronze, water and steel",
      "Commissioned by the Wrenfield Museum of Art",
      "Ines Carvalhal made this fountain for the court. Every six hours the water in the bronze "
      "basin slowly rises and falls, like the tide in the harbour.",
      "Ines Carvalhal creó esta fuente para el patio. Cada seis horas, el agua de la pila de "
      "bronce sube y baja lentamente, como la marea en el puerto.",
      "伊內斯·卡瓦利亞爾為這座中庭創作了這座噴泉。每隔六小時，銅盆中的水位就會緩緩升降，如同港口的潮汐。",
      copyright="© Ines Carvalhal", cid=87020),
    A("g104", ["209"], "Sleeping Lion", "León dormido", "沉睡的獅子",
      "Giacomo Rivalta|Italian, 1822–1890", "1871", "Marble", "Gift of the Wrenfield Family",
      "This lion is fast asleep, with his chin resting on his paws. Children have patted his "
      "nose for so long that the marble there is worn smooth.",
      "Este león está profundamente dormido, con la barbilla apoyada en las patas. Los niños le "
      "han acariciado la nariz durante tanto tiempo que el mármol se ha vuelto liso.",
      "這頭獅子睡得正香，下巴枕在爪子上。多年來孩子們不斷撫摸牠的鼻子，那裡的大理石已經被磨得十分光滑。",
      cid=87021),
    A("g104", ["210"], "Figure Listening", "Figura que escucha", "聆聽的人像",
      "Amara Okonjo|Nigerian, born 1980", "2019", "Cast aluminium",
      "Purchased with funds from the Contemporary Circle",
      "Amara Okonjo asked her neighbours to sit for her with their eyes closed, listening to "
      "music. The figure tilts its head toward a sound we cannot hear.",
      "Amara Okonjo pidió a sus vecinos que posaran con los ojos cerrados, escuchando música. La "
      "figura inclina la cabeza hacia un sonido que no podemos oír.",
      "阿瑪拉·奧孔喬請鄰居們閉上眼睛聆聽音樂，讓她塑像。這個人像把頭側向一個我們聽不見的聲音。",
      copyright="© Amara Okonjo"),
    # --- Floor 1: Gallery 105, silver and furniture -------------------------
    A("g105", ["211"], "Tea Service with Anchors", "Juego de té con anclas", "船錨茶具組",
      "Lucius Penhallow|American, 1834–1899", "1872", "Silver and ivory",
      "Gift of the Penhallow Society",
      "Lucius Penhallow made this tea service for a ship owner&#039;s wedding. Tiny anchors "
      "decorate every handle and spout.",
      "Lucius Penhallow hizo este juego de té para la boda de un armador. Pequeñas anclas "
      "decoran cada asa y cada pico.",
      "盧修斯·潘哈洛為一位船東的婚禮製作了這套茶具。每個把手和壺嘴上都裝飾著小小的船錨。"),
    A("g105", ["212"], "Longcase Clock with Turning Moon", "Reloj de caja alta con luna giratoria",
      "月相落地鐘", "Harwell and Sons|London, England, 1790s", "1790s",
      "Oak, brass and painted iron dial", "Bequest of Theodora Vance",
      "Above the dial of this clock, a painted moon slowly turns to show its phases. Sailors "
      "used clocks like this to plan around the spring tides.",
      "Sobre la esfera de este reloj, una luna pintada gira lentamente para mostrar sus fases. "
      "Los marineros usaban relojes como este para prever las mareas vivas.",
      "在這座鐘的錶盤上方，一個彩繪月亮緩緩轉動，顯示月相的變化。水手們會利用這樣的時鐘來安排大潮時的行程。"),
    A("g105", ["213"], "Chest with Ship Carvings", "Arcón con barcos tallados", "船隻雕刻木箱",
      "Unknown maker|Massachusetts, United States, about 1700", "about 1700", "Oak and pine",
      "Gift of the Harlan Family",
      "The ships carved on this chest may be the ones its owner sailed in. The lid still has the "
      "scratched initials of a boy named Josiah.",
      "Los barcos tallados en este arcón podrían ser aquellos en los que navegó su dueño. La "
      "tapa aún conserva las iniciales rayadas de un niño llamado Josiah.",
      "這個木箱上雕刻的船隻，可能正是箱子主人曾經搭乘過的船。箱蓋上至今仍留有一個名叫約書亞的男孩刻下的姓名縮寫。"),
    # --- Floor 2: Gallery 201, portraits (pendant pair shares a number) -----
    A("g201", ["301"], "Portrait of the Harbourmaster", "Retrato del capitán de puerto",
      "港務長肖像", "Hollis Brandt|American, 1844–1911", "1879", "Oil on canvas",
      "Gift of the Brandt Family",
      "Hollis Brandt painted Captain Elias Moore in his best coat, holding the harbour log. The "
      "portrait hangs beside its partner, a portrait of his wife.",
      "Hollis Brandt pintó al capitán Elias Moore con su mejor abrigo, sosteniendo el registro "
      "del puerto. El retrato cuelga junto a su pareja, el retrato de su esposa.",
      "霍利斯·布蘭特描繪了身穿最好外套、手持港口日誌的伊萊亞斯·摩爾船長。這幅肖像與另一幅作品並排懸掛，那是他妻子的肖像。",
      cid=87026),
    A("g201", ["301"], "Portrait of the Harbourmaster&#039;s Wife",
      "Retrato de la esposa del capitán de puerto", "港務長夫人肖像",
      "Hollis Brandt|American, 1844–1911", "1879", "Oil on canvas", "Gift of the Brandt Family",
      "Ruth Moore kept the harbour accounts for thirty years. Brandt shows her with a pen in "
      "hand, glancing toward her husband in the next frame.",
      "Ruth Moore llevó las cuentas del puerto durante treinta años. Brandt la muestra con una "
      "pluma en la mano, mirando hacia su esposo en el cuadro vecino.",
      "露絲·摩爾管理港口帳目長達三十年。布蘭特描繪她手握羽毛筆，目光望向隔壁畫框中的丈夫。",
      cid=87027),
    A("g201", ["302"], "Boy with a Kite", "Niño con cometa", "放風箏的男孩",
      "Hollis Brandt|American, 1844–1911", "1886", "Oil on canvas", "Gift of the Brandt Family",
      "The wind tugs at this boy&#039;s kite and hair. Brandt painted the sky last, in a single "
      "afternoon, to keep it fresh.",
      "El viento tira de la cometa y del pelo de este niño. Brandt pintó el cielo al final, en "
      "una sola tarde, para que se viera fresco.",
      "風吹動著男孩的風箏和頭髮。布蘭特最後才畫天空，只用了一個下午，讓它保持清新的感覺。"),
    A("g201", ["303"], "The Dog Named Admiral", "El perro llamado Almirante", "名叫海軍上將的狗",
      "Clara Bellweather|American, 1851–1930", "1890", "Oil on canvas",
      "Gift of Ellen and Thomas Pryce",
      "Admiral was a ship&#039;s dog who went on every voyage. Clara Bellweather painted him "
      "sitting proudly on a coil of rope.",
      "Almirante era un perro de barco que iba en cada travesía. Clara Bellweather lo pintó "
      "sentado con orgullo sobre un rollo de cuerda.",
      "「海軍上將」是一隻每次航行都隨船出海的船犬。克拉拉·貝爾威瑟畫下牠驕傲地坐在一卷纜繩上的模樣。",
      cid=87029),
    # --- Floor 2: Gallery 202, seventeenth century -------------------------
    A("g202", ["304"], "Still Life with Lemons and a Lute", "Bodegón con limones y laúd",
      "檸檬與魯特琴靜物", "Basilio Ferrante|Italian, 1611–1668", "1652", "Oil on canvas",
      "Bequest of Harriet and Louis Vane",
      "One lemon is half peeled, and its rind curls over the edge of the table. Ferrante liked "
      "to show how quickly beautiful things change.",
      "Un limón está medio pelado y su cáscara se enrosca sobre el borde de la mesa. A Ferrante "
      "le gustaba mostrar lo rápido que cambian las cosas bellas.",
      "其中一顆檸檬剝了一半，果皮捲曲著垂在桌邊。費蘭特喜歡表現美好事物轉瞬即逝的變化。",
      cid=87030),
    A("g202", ["305"], "The Monk Who Calmed the Waves", "El monje que calmó las olas",
      "平息風浪的修士", "Basilio Ferrante|Italian, 1611–1668", "1660", "Oil on canvas",
      "Bequest of Harriet and Louis Vane",
      "In this large canvas a monk raises his hand, and the storm around his small boat begins "
      "to settle. Ferrante painted it for a chapel used by sailors.",
      "En este gran lienzo, un monje levanta la mano y la tormenta alrededor de su pequeña barca "
      "comienza a calmarse. Ferrante lo pintó para una capilla de marineros.",
      "在這幅大型畫作中，一位修士舉起手，圍繞他小船的風暴隨之開始平息。費蘭特為一座水手們使用的小教堂繪製了這幅作品。"),
    A("g202", ["306"], "Kitchen Maid with Herring", "Criada con arenques", "拿著鯡魚的廚娘",
      "Geertruyd van Assel|Flemish, 1629–1681", "1665", "Oil on panel",
      "Gift of the Linden Foundation",
      "Geertruyd van Assel was one of the few women in her city&#039;s guild of painters. Look "
      "at the silver scales of the herring, painted with a brush of a single hair.",
      "Geertruyd van Assel fue una de las pocas mujeres del gremio de pintores de su ciudad. "
      "Fíjese en las escamas plateadas del arenque, pintadas con un pincel de un solo pelo.",
      "赫特勞德·范·阿塞爾是她所在城市畫家公會中少數的女性之一。請看鯡魚銀色的鱗片，那是用只有一根毛的畫筆畫出來的。"),
    # --- Floor 2: Gallery 203, tapestries (one work with two numbers) ------
    A("g203", ["307", "308"], "The Hunt of the White Stag", "La caza del ciervo blanco",
      "獵捕白鹿", "Weavers of the Lys Valley|Flanders, about 1520", "about 1520",
      "Wool and silk tapestry", "Gift of the Linden Foundation",
      "This tapestry is nearly six metres wide and took four weavers two years to finish. "
      "Follow the white stag from the forest on the left to the river on the right.",
      "Este tapiz mide casi seis metros de ancho y cuatro tejedores tardaron dos años en "
      "terminarlo. Siga al ciervo blanco desde el bosque de la izquierda hasta el río de la "
      "derecha.",
      "這幅掛毯寬近六公尺，四位織工花了兩年才完成。請跟隨白鹿，從左邊的森林一路走到右邊的河流。",
      cid=87033,
      extra=dict(
          title="The Hunt of the White Stag: the hidden rabbit",
          title_es="La caza del ciervo blanco: el conejo escondido",
          title_zh="獵捕白鹿：藏起來的兔子",
          en="Now look closely at the lower right corner. A weaver hid a tiny rabbit there, "
             "peeking out from under a fern. It may be the workshop&#039;s signature.",
          es="Ahora mire de cerca la esquina inferior derecha. Un tejedor escondió allí un "
             "pequeño conejo que asoma bajo un helecho. Podría ser la firma del taller.",
          zh="現在請仔細看看右下角。一位織工在那裡藏了一隻小兔子，正從蕨葉下探出頭來。這也許就是工坊的簽名。")),
    A("g203", ["309"], "Garden of the Months", "Jardín de los meses", "十二月令花園",
      "Weavers of the Lys Valley|Flanders, about 1535", "about 1535", "Wool and silk tapestry",
      "Gift of the Linden Foundation",
      "Each flower bed in this tapestry stands for one month of the year. December is the bare "
      "patch of earth in the corner, waiting for spring.",
      "Cada parterre de este tapiz representa un mes del año. Diciembre es el trozo de tierra "
      "desnuda de la esquina, que espera la primavera.",
      "這幅掛毯中的每一個花圃代表一年中的一個月份。十二月是角落裡那塊光禿禿的土地，正等待著春天。"),
    A("g203", ["310"], "Woven Map of the Coast", "Mapa tejido de la costa", "編織海岸地圖",
      "Priya Raman|British, born India, 1971", "2021", "Linen, cotton and copper thread",
      "Purchased with funds from the Contemporary Circle",
      "Priya Raman wove this map from memory after walking the coast for a month. The copper "
      "threads trace the path she followed.",
      "Priya Raman tejió este mapa de memoria tras recorrer la costa durante un mes. Los hilos "
      "de cobre trazan el camino que siguió.",
      "普莉雅·拉曼沿著海岸步行了一個月之後，憑記憶織出了這幅地圖。銅線描繪出她走過的路線。",
      copyright="© 2021 Priya Raman", cid=87035),
    # --- Floor 2: Gallery 204, early modern -------------------------------
    A("g204", ["311"], "Café on the Quay", "Café en el muelle", "碼頭咖啡館",
      "Teodor Varga|Hungarian, 1890–1944", "1926", "Oil on canvas",
      "Gift of Ilona and George Fekete",
      "Teodor Varga painted his friends at their favourite café by the river. The waiter "
      "balancing five cups is the artist himself.",
      "Teodor Varga pintó a sus amigos en su café favorito junto al río. El camarero que "
      "equilibra cinco tazas es el propio artista.",
      "特奧多爾·瓦爾加畫下了朋友們在河邊最喜愛的咖啡館裡的情景。那位端著五個杯子保持平衡的侍者，正是畫家本人。",
      cid=87036),
    A("g204", ["312"], "Washerwomen at the River", "Lavanderas en el río", "河邊的洗衣婦",
      "Odile Marchetti|French, 1880–1951", "1909", "Oil on canvas",
      "Gift of the Marchetti Society",
      "Marchetti set up her easel right beside these women as they worked. Their laughter, she "
      "wrote, was louder than the river.",
      "Marchetti colocó su caballete justo al lado de estas mujeres mientras trabajaban. Su "
      "risa, escribió, era más fuerte que el río.",
      "馬爾凱蒂就在這些婦女工作的身旁架起畫架。她寫道，她們的笑聲比河水還要響亮。"),
    A("g204", ["313"], "Blue Horse in the Snow", "Caballo azul en la nieve", "雪中的藍馬",
      "Teodor Varga|Hungarian, 1890–1944", "1931", "Oil on canvas",
      "Gift of Ilona and George Fekete",
      "Horses are not really blue, but Teodor Varga wanted this one to look as cold and calm as "
      "the snowy field around it.",
      "Los caballos no son azules en realidad, pero Teodor Varga quería que este pareciera tan "
      "frío y tranquilo como el campo nevado que lo rodea.",
      "馬其實不是藍色的，但特奧多爾·瓦爾加希望這匹馬看起來就像周圍的雪原一樣寒冷而寧靜。",
      cid=87038),
    # --- Floor 3: Gallery 301, modern -------------------------------------
    A("g301", ["401"], "Signal Flags", "Banderas de señales", "信號旗",
      "Jonah Whitlock|American, 1912–1988", "1958", "Oil on canvas",
      "Gift of Marian and Lloyd Hatch",
      "Jonah Whitlock grew up reading the flags that ships use to talk to each other. Here the "
      "bright squares spell a secret word that he never revealed.",
      "Jonah Whitlock creció leyendo las banderas que usan los barcos para comunicarse. Aquí, "
      "los cuadros de colores forman una palabra secreta que nunca reveló.",
      "喬納·惠特洛克從小就會解讀船隻之間用來溝通的旗語。畫中鮮豔的方塊拼出了一個他從未透露的秘密單字。",
      copyright="© Estate of Jonah Whitlock", cid=87039),
    A("g301", ["402"], "Gray Field No. 7", "Campo gris n.º 7", "灰色場域第七號",
      "Clementine Auger|Canadian, 1925–2009", "1966", "Acrylic on canvas",
      "Gift of the artist&#039;s family",
      "Up close, this gray field is made of hundreds of thin layers.\r\nStep back and watch "
      "faint bands of blue and rose appear.",
      "De cerca, este campo gris está hecho de cientos de capas finas.\r\nRetroceda y verá "
      "aparecer tenues franjas azules y rosadas.",
      "近看之下，這片灰色是由數百層薄薄的顏料疊成的。\r\n後退幾步，您會看到淡淡的藍色和玫瑰色條紋浮現出來。",
      copyright="© Estate of Clementine Auger"),
    A("g301", ["403"], "Harbour Crane", "Grúa del puerto", "港口起重機",
      "Jonah Whitlock|American, 1912–1988", "1962", "Welded and painted steel",
      "Gift of Marian and Lloyd Hatch",
      "Whitlock built this sculpture from parts of a real dock crane. The long red arm is so "
      "well balanced that a breath of air can move it.",
      "Whitlock construyó esta escultura con piezas de una grúa portuaria real. El largo brazo "
      "rojo está tan bien equilibrado que un soplo de aire puede moverlo.",
      "惠特洛克用一台真正碼頭起重機的零件打造了這件雕塑。長長的紅色吊臂平衡得極好，一絲微風就能讓它移動。",
      copyright="© Estate of Jonah Whitlock", cid=87041),
    A("g301", ["404"], "Chair No. 3", "Silla n.º 3", "三號椅",
      "Henrike Lassen|Danish, 1905–1990", "1949", "Bent plywood and wool",
      "Gift of the Lassen Design Archive",
      "Henrike Lassen designed this chair to be made from a single sheet of plywood. She tested "
      "forty versions before she found a curve strong enough to sit on.",
      "Henrike Lassen diseñó esta silla para fabricarse con una sola lámina de contrachapado. "
      "Probó cuarenta versiones antes de encontrar una curva lo bastante fuerte para sentarse.",
      "亨麗克·拉森設計這把椅子時，要求它只用一整片夾板製成。她試做了四十個版本，才找到足以承受坐姿的弧度。"),
    # --- Floor 3: Gallery 302, contemporary -------------------------------
    A("g302", ["405"], "A Thousand Paper Boats", "Mil barcos de papel", "一千艘紙船",
      "Amara Okonjo|Nigerian, born 1980", "2022", "Folded paper and thread",
      "Commissioned by the Wrenfield Museum of Art",
      "Visitors folded these paper boats during a workshop in the museum. Amara Okonjo hung "
      "them at different heights, so they seem to float on an invisible sea.",
      "Los visitantes doblaron estos barcos de papel durante un taller en el museo. Amara "
      "Okonjo los colgó a distintas alturas, así que parecen flotar sobre un mar invisible.",
      "這些紙船是觀眾在博物館的工作坊中摺成的。阿瑪拉·奧孔喬把它們懸掛在不同的高度，看起來就像漂浮在一片看不見的海上。",
      copyright="© Amara Okonjo", cid=87043),
    A("g302", ["406"], "Weather Report", "Parte meteorológico", "天氣報告",
      "Ines Carvalhal|Portuguese, born 1958", "2018", "Video, colour, sound; 12 minutes",
      "Purchased with funds from the Contemporary Circle",
      "This video shows one year of weather over the harbour, filmed from the museum roof and "
      "shortened to twelve minutes.",
      "Este vídeo muestra un año del tiempo sobre el puerto, filmado desde la azotea del museo "
      "y reducido a doce minutos.",
      "這段影片呈現了港口上空一整年的天氣變化，在博物館屋頂拍攝，並濃縮成十二分鐘。",
      copyright="© Ines Carvalhal"),
    A("g302", ["407"], "Owl Mask", "Máscara de búho", "貓頭鷹面具",
      "Tove Sandaker|Norwegian, born 1984", "2020", "Recycled plastic and felt",
      "Gift of the Friends of Contemporary Art",
      "Tove Sandaker made this owl mask from plastic she collected on the beach. The huge round "
      "eyes were once bottle caps.",
      "Tove Sandaker hizo esta máscara de búho con plástico que recogió en la playa. Los "
      "enormes ojos redondos eran antes tapones de botella.",
      "托芙·桑達克用她在海灘上撿拾的塑膠製作了這個貓頭鷹面具。那對又大又圓的眼睛原本是瓶蓋。",
      copyright="© Tove Sandaker", cid=87045),
    A("g302", ["408"], "Quiet Room for Ten People", "Sala silenciosa para diez personas",
      "十人靜室", "Yun Seo-ha|Korean, born 1966", "2023", "Porcelain, wood and felt",
      "Commissioned by the Wrenfield Museum of Art",
      "Ten porcelain stools wait here for visitors. Yun Seo-ha invites you to sit for a moment "
      "and listen to the building breathe.",
      "Diez taburetes de porcelana esperan aquí a los visitantes. Yun Seo-ha le invita a "
      "sentarse un momento y escuchar cómo respira el edificio.",
      "十張瓷凳在這裡等候觀眾。尹瑞夏邀請您坐下片刻，聆聽這座建築的呼吸。",
      copyright="© Yun Seo-ha"),
    # --- Floor 3: Gallery 302 (Gallery 303 is closed and holds nothing on view) ---
    A("g302", ["409"], "Model for a Floating Theatre", "Maqueta para un teatro flotante",
      "水上劇場模型", "Henrike Lassen|Danish, 1905–1990", "1961", "Wood, paper and brass",
      "Gift of the Lassen Design Archive",
      "Henrike Lassen hoped to build a theatre on a barge that could visit every harbour town. "
      "This model is all that was ever made.",
      "Henrike Lassen soñaba con construir un teatro sobre una barcaza que pudiera visitar todos "
      "los pueblos portuarios. Esta maqueta es lo único que llegó a hacerse.",
      "亨麗克·拉森曾希望在一艘駁船上建造一座劇場，駛往每一個港口城鎮。這個模型是唯一完成的作品。",
      cid=87047),
]

# ---------------------------------------------------------------------------
# Tours
# ---------------------------------------------------------------------------

TOUR_CATEGORIES = {
    "51": ("Highlights", "Destacados", "精選"),
    "52": ("Collection Tours", "Recorridos por la colección", "館藏導覽"),
    "53": ("Family", "En familia", "親子"),
}

# stops: (artwork title, stop audio) where stop audio is "c0"/"c1" (the
# artwork's first/second commentary) or a dict with its own narration.
TOURS = [
    dict(
        nid=4001, weight=0, banner="FEATURED", selector="900", category="Highlights",
        floor="1", start="g104", duration=("30 min", "30 min", "30 分鐘"),
        title=("Highlights of the Wrenfield", "Lo esencial del Wrenfield", "雷恩菲爾德精選導覽"),
        description=("Meet the museum&#039;s best-loved works on every floor.",
                     "Conozca las obras más queridas del museo en todas las plantas.",
                     "欣賞博物館各樓層最受喜愛的作品。"),
        intro=("From harbour paintings to a tapestry with a hidden rabbit, this tour visits "
               "seven favourites. Allow about half an hour.",
               "Desde pinturas de puertos hasta un tapiz con un conejo escondido, este recorrido "
               "visita siete obras favoritas. Calcule una media hora.",
               "從港口繪畫到藏著一隻小兔子的掛毯，這條路線將帶您欣賞七件人氣作品。全程約需半小時。"),
        audio=("Welcome to the Wrenfield Museum of Art. On this tour we will visit seven "
               "favourite works on every floor of the building.",
               "Bienvenido al Museo de Arte Wrenfield. En este recorrido visitaremos siete obras "
               "favoritas en todas las plantas del edificio.",
               "歡迎來到雷恩菲爾德美術館。在這條導覽路線中，我們將參觀分布在各樓層的七件最受歡迎的作品。"),
        stops=[("Tide Table", "c0"), ("Harbour at First Light", "c0"),
               ("Portrait of the Harbourmaster", "c0"), ("The Hunt of the White Stag", "c1"),
               ("Signal Flags", "c0"), ("A Thousand Paper Boats", "c0"),
               ("Night Ferry", "c0")]),
    dict(
        nid=4002, weight=1, banner="NEW", selector=None, category="Collection Tours",
        floor=1, start="g101", duration=("40 min", "40 min", "40 分鐘"),
        title=("Water and Light", "Agua y luz", "水與光"),
        description=("Follow the harbour through two centuries of painting and photography.",
                     "Siga el puerto a través de dos siglos de pintura y fotografía.",
                     "透過兩個世紀的繪畫與攝影，追尋港口的身影。"),
        intro=("Artists have always been drawn to the water. On this tour you will see how "
               "painters and photographers captured fog, storms and the first light of morning.",
               "Los artistas siempre se han sentido atraídos por el agua. En este recorrido verá "
               "cómo pintores y fotógrafos captaron la niebla, las tormentas y la primera luz de "
               "la mañana.",
               "藝術家們總是被水所吸引。在這條路線中，您將看到畫家和攝影師如何捕捉霧氣、暴風雨和清晨的第一道光。"),
        audio=("Welcome to Water and Light. Six works, one theme: the sea and the harbour that "
               "gave this museum its home.",
               "Bienvenido a Agua y luz. Seis obras y un solo tema: el mar y el puerto donde "
               "nació este museo.",
               "歡迎參加「水與光」導覽。六件作品，一個主題：孕育這座博物館的大海與港口。"),
        stops=[("Harbour at First Light", dict(
                    title="Water and Light: Harbour at First Light",
                    en="We begin with Velden&#039;s harbour. Notice that there is not a single "
                       "person in it, only boats, water and light.",
                    es="Comenzamos con el puerto de Velden. Observe que no hay ni una sola "
                       "persona, solo barcos, agua y luz.",
                    zh="我們從費爾登的港口開始。請注意畫中沒有任何人物，只有船隻、海水和光線。")),
               ("Oyster Boats Returning", "c0"), ("Rain on the Estuary", "c0"),
               ("Tide Table", "c0"), ("Net Menders at the Pier", "c0"), ("Night Ferry", "c0")]),
    dict(
        nid="4003", weight="2", banner=None, selector=None, category="Family",
        floor="1", start="g104", duration=("20 min", "20 min", "20 分鐘"), no_first_bumper=True,
        title=("Animal Spotting for Families", "Animales a la vista: para familias",
               "親子導覽：尋找動物"),
        description=("A playful tour for young visitors and their grown-ups.",
                     "Un recorrido divertido para visitantes pequeños y sus acompañantes adultos.",
                     "專為小朋友和家長設計的趣味導覽。"),
        intro=("A lion, a dog, some gulls, a blue horse and an owl are hiding in the "
               "galleries. Can you find them all?",
               "Un león, un perro, unas gaviotas, un caballo azul y un búho se esconden en las "
               "salas. ¿Puedes encontrarlos a todos?",
               "一頭獅子、一隻狗、幾隻海鷗、一匹藍色的馬和一隻貓頭鷹藏在展廳裡。你能把牠們全部找出來嗎？"),
        audio=("Hello, animal spotters! Listen carefully, look closely, and see how many "
               "animals you can find today.",
               "¡Hola, exploradores de animales! Escuchen con atención, miren de cerca y "
               "descubran cuántos animales pueden encontrar hoy.",
               "小小動物偵探們，大家好！仔細聽，認真看，看看今天你能找到多少隻動物。"),
        stops=[("Sleeping Lion", dict(
                    title="Animal Spotting: Sleeping Lion",
                    en="Shh, the lion is sleeping! Walk all the way around him. Can you find "
                       "his tail curled beside his paws?",
                    es="¡Shh, el león está durmiendo! Da una vuelta a su alrededor. ¿Encuentras "
                       "su cola enroscada junto a las patas?",
                    zh="噓，獅子正在睡覺！繞著牠走一圈。你能找到牠捲在爪子旁邊的尾巴嗎？")),
               ("Gulls over the Breakwater", dict(
                    title="Animal Spotting: Gulls",
                    en="How many gulls can you count? Flap your arms gently, like a gull "
                       "gliding over the water.",
                    es="¿Cuántas gaviotas puedes contar? Mueve los brazos despacio, como una "
                       "gaviota que planea sobre el agua.",
                    zh="你能數出幾隻海鷗？輕輕揮動你的手臂，像一隻在水面上滑翔的海鷗。")),
               ("The Dog Named Admiral", dict(
                    title="Animal Spotting: Admiral the Dog",
                    en="Admiral sailed on every voyage. If you had a ship&#039;s dog, what "
                       "would you name it?",
                    es="Almirante navegó en cada travesía. Si tuvieras un perro de barco, ¿cómo "
                       "lo llamarías?",
                    zh="「海軍上將」每次航行都跟著出海。如果你有一隻船犬，你會幫牠取什麼名字？")),
               ("Blue Horse in the Snow", dict(
                    title="Animal Spotting: the Blue Horse",
                    en="This horse is blue! Shiver as if you were standing in the snow, then "
                       "choose a colour for your own horse.",
                    es="¡Este caballo es azul! Tiembla como si estuvieras en la nieve y luego "
                       "elige un color para tu propio caballo.",
                    zh="這匹馬是藍色的！假裝你站在雪地裡發抖，然後為你自己的馬選一種顏色。")),
               ("Owl Mask", dict(
                    title="Animal Spotting: Owl Mask",
                    en="This owl was once rubbish on a beach. Look for the bottle caps. What "
                       "would you make from things you find on the beach?",
                    es="Este búho antes era basura de la playa. Busca los tapones de botella. "
                       "¿Qué harías tú con las cosas que encuentras en la playa?",
                    zh="這隻貓頭鷹原本是海灘上的垃圾。找一找那些瓶蓋吧。你會用在海灘上撿到的東西做什麼呢？"))]),
    dict(
        nid=4004, weight=3, banner=None, selector=None, category="Collection Tours",
        floor="0", start="g10", duration=("35 min", "35 min", "35 分鐘"), sort_step=10,
        title=("Threads and Clay", "Hilos y arcilla", "絲線與陶土"),
        description=("Textiles and ceramics from five centuries, made by hand.",
                     "Textiles y cerámicas de cinco siglos, hechos a mano.",
                     "橫跨五個世紀的手工織品與陶瓷。"),
        intro=("Weavers and potters work slowly, with their hands. Discover the stories and "
               "small signatures they left in their work.",
               "Tejedores y alfareros trabajan despacio, con las manos. Descubra las historias y "
               "las pequeñas firmas que dejaron en sus obras.",
               "織工與陶藝家用雙手慢慢創作。探索他們在作品中留下的故事和小小的簽名。"),
        audio=("Welcome to Threads and Clay. Our route begins downstairs with textiles and ends "
               "upstairs among the great tapestries.",
               "Bienvenido a Hilos y arcilla. Nuestra ruta comienza abajo con los textiles y "
               "termina arriba entre los grandes tapices.",
               "歡迎參加「絲線與陶土」導覽。我們的路線從樓下的織品開始，最後在樓上的大型掛毯之間結束。"),
        stops=[("Indigo Field Coverlet", "c0"), ("Salt &amp; Ember", "c0"), ("Moon Jar", "c0"),
               ("Storage Jar with Ash Glaze", "c0"), ("The Hunt of the White Stag", "c0"),
               ("Woven Map of the Coast", "c0")]),
]

FLOOR_NAMES = {  # used in the walking directions
    0: ("the lower level", "el nivel inferior", "地下樓層"),
    1: ("floor 1", "la planta 1", "一樓"),
    2: ("floor 2", "la planta 2", "二樓"),
    3: ("floor 3", "la planta 3", "三樓"),
}


def bumper_text(prev_gallery, gallery, first):
    g = gallery
    if first:
        return ("Your first stop is in %s." % g["en"],
                "Su primera parada está en %s." % g["es"],
                "第一站位於%s。" % g["zh"])
    if prev_gallery is g:
        return ("Stay in %s; the next stop is only a few steps away." % g["en"],
                "Quédese en %s; la siguiente parada está a pocos pasos." % g["es"],
                "請留在%s，下一站就在幾步之外。" % g["zh"])
    if prev_gallery["floor"] == g["floor"]:
        return ("Now walk to %s for the next stop." % g["en"],
                "Ahora camine hasta %s para la siguiente parada." % g["es"],
                "現在請走到%s，前往下一站。" % g["zh"])
    f = FLOOR_NAMES[g["floor"]]
    return ("Take the stairs or the elevator to %s, then walk to %s." % (f[0], g["en"]),
            "Tome las escaleras o el ascensor hasta %s y camine hasta %s." % (f[1], g["es"]),
            "請走樓梯或搭電梯到%s，再前往%s。" % (f[2], g["zh"]))


# ---------------------------------------------------------------------------
# Map annotations: (floor or None, x, y, annotation_type, subtype, label, description)
# ---------------------------------------------------------------------------

DINING = {
    "Harbour Café": (0, 1200, 1280, "Daily: 10am–4pm\r\nThursday: 10am–8pm"),
    "Loom Espresso Bar": (2, 1220, 1040, "Monday–Friday: 10am–5pm\r\nSaturday–Sunday: 11am–5pm\r\n"),
    "Terrace Kitchen": (3, 1200, 1338, "Lunch: 11:30am–3pm\r\nThursday dinner: 5pm–8:30pm"),
}

ANNOTATIONS = []


def _amen(floor, x, y, kind):
    ANNOTATIONS.append((floor, x, y, "Amenity", kind, None, None))


for _f in range(4):
    _amen(_f, 1110, 1410, "Elevator")
    _amen(_f, 1160, 1410, "Women's Room")
    _amen(_f, 1210, 1410, "Men's Room")
for _f in (0, 2):
    _amen(_f, 1270, 1410, "Family Restroom")
for _f in (0, 1, 2):
    _amen(_f, 1115, 1000, "Escalator")
_amen(0, 1200, 1030, "Check Room")
_amen(0, 1260, 1120, "Information")
_amen(0, 1200, 968, "Wheelchair Ramp")
_amen(1, 1400, 960, "Tickets")
_amen(1, 1480, 1010, "Information")
_amen(1, 1560, 960, "Audio Guide")
_amen(1, 1600, 1090, "Gift Shop")
_amen(1, 1490, 868, "Wheelchair Ramp")
_amen(2, 1200, 1300, "Members Lounge")
_amen(3, 1290, 1410, "Gift Shop")
for _name, (_f, _x, _y, _hours) in DINING.items():
    ANNOTATIONS.append((_f, _x, _y, "Amenity", "Dining", _name, _hours))
for _f, _x, _y, _label in [
        (0, 920, 1420, "Textiles\r\nand Fiber"), (0, 920, 1000, "Ceramics"),
        (0, 1490, 1440, "Photography"), (1, 920, 1420, "Marine Painting"),
        (1, 1200, 1300, "Sculpture"), (1, 1490, 1440, "Decorative Arts"),
        (2, 920, 1420, "American Portraits"), (2, 920, 1000, "European Painting\r\n1600–1700"),
        (2, 1490, 1440, "Tapestries"), (3, 1490, 1440, "Modern and\r\nContemporary Art")]:
    ANNOTATIONS.append((_f, _x, _y, "Department", None, _label, None))
for _f, _x, _y, _label in [(0, 1490, 1000, "Family\r\nStudio"), (1, 1490, 1110, "Main Lobby"),
                           (2, 1200, 1150, "Bridge"), (3, 1205, 1150, "Sky\r\nTerrace")]:
    ANNOTATIONS.append((_f, _x, _y, "Text", "Space", _label, None))
for _x, _y, _label in [(920, 1200, "Founders\r\nBuilding"), (1200, 1110, "Lantern Court"),
                       (1490, 1200, "Foundry Wing")]:
    ANNOTATIONS.append((None, _x, _y, "Text", "Landmark", _label, None))
for _x, _y, _label in [(1200, 780, "Reed Garden"), (1000, 1620, "Sculpture Lawn")]:
    ANNOTATIONS.append((None, _x, _y, "Text", "Garden", _label, None))

# ---------------------------------------------------------------------------
# Texts: general info, messages, exhibitions, events
# ---------------------------------------------------------------------------

GENERAL_INFO = {
    "museum_hours": (
        "Open daily 10:00 a.m. to 5:00 p.m., Thursdays until 9:00 p.m.\r\n"
        "Closed on New Year&#039;s Day and Thanksgiving Day.",
        "Abierto todos los días de 10:00 a 17:00; los jueves hasta las 21:00.\r\n"
        "Cerrado el día de Año Nuevo y el Día de Acción de Gracias.",
        "每天上午十點至下午五點開放，週四延長至晚上九點。\r\n元旦及感恩節休館。"),
    "home_member_prompt_text": (
        "Your pocket guide to the Wrenfield: tours, maps and stories in three languages.",
        "Su guía de bolsillo del Wrenfield: recorridos, mapas e historias en tres idiomas.",
        "您的雷恩菲爾德隨身導覽：導覽路線、地圖與作品故事，提供三種語言。"),
    "see_all_tours_intro": (
        "Choose a tour below and let the map lead the way. Forgot your headphones? Ask for a "
        "free pair at the Information desk.",
        "Elija un recorrido y deje que el mapa le guíe. ¿Olvidó sus auriculares? Pida unos "
        "gratis en el mostrador de Información.",
        "在下方選擇一條導覽路線，讓地圖為您引路。忘了帶耳機嗎？請到服務台索取免費耳機。"),
    "audio_title": ("Listen", "Escuchar", "收聽"),
    "audio_subtitle": (
        "Type the number on the gallery label to hear the story behind the work.",
        "Escriba el número de la cartela para escuchar la historia de la obra. ",
        "輸入展品標籤上的號碼，聆聽作品背後的故事。"),
    "map_title": ("Find your way", "Oriéntese", "找到方向"),
    "map_subtitle": (
        "Use the map to find galleries, food, restrooms and artworks with audio.",
        "Use el mapa para encontrar salas, comida, baños y obras con audio.",
        "使用地圖尋找展廳、餐飲、洗手間以及附有語音導覽的作品。"),
    "info_title": ("Information", "Información", "資訊"),
    "info_subtitle": (
        "Opening hours, languages, your member card and more.",
        "Horario, idiomas, su tarjeta de miembro y más.",
        "開放時間、語言設定、會員卡及更多資訊。"),
    "gift_shops_title": ("Museum Shop", "Tienda del museo", "博物館商店"),
    "gift_shops_text": (
        "Books, prints and gifts inspired by the collection, on floors 1 and 3.",
        "Libros, láminas y regalos inspirados en la colección, en las plantas 1 y 3.",
        "一樓和三樓設有與館藏相關的書籍、版畫和禮品。"),
    "members_lounge_title": ("Members Lounge", "Salón de miembros", "會員休息室"),
    "members_lounge_text": (
        "Coffee and a quiet seat for members, on floor 2.",
        "Café y un asiento tranquilo para los miembros, en la planta 2.",
        "二樓為會員提供咖啡和安靜的座位。"),
    "restrooms_title": ("Restrooms", "Baños", "洗手間"),
    "restrooms_text": (
        "Restrooms are on every floor next to the elevators.",
        "Hay baños en todas las plantas junto a los ascensores.",
        "每層樓的電梯旁都設有洗手間。"),
}

MESSAGES = [
    dict(nid="6001", message_type="launch", persistent=False, tour_exit=None,
         title=("Welcome to the Wrenfield", "Bienvenido al Wrenfield", "歡迎來到雷恩菲爾德"),
         message=("<p>Our <strong>Sky Terrace</strong> on floor 3 is open again. Enjoy the view "
                  "over the harbour!</p>",
                  "<p>Nuestra <strong>Terraza del Cielo</strong> en la planta 3 vuelve a estar "
                  "abierta. ¡Disfrute de la vista del puerto!</p>",
                  "<p>三樓的<strong>天空露台</strong>已重新開放，歡迎前往欣賞港口美景！</p>"),
         action="https://example.org/visit/sky-terrace",
         action_title=("Learn more", "Más información", "了解更多")),
    dict(nid="6002", message_type="tour_exit", persistent=False, tour_exit="4002",
         title=("Thank you for taking Water and Light", "Gracias por hacer Agua y luz",
                "感謝您參加「水與光」導覽"),
         message=("<p>Tell us what you thought of this tour and help us plan the next one.</p>",
                  "<p>Cuéntenos qué le pareció este recorrido y ayúdenos a preparar el "
                  "próximo.</p>",
                  "<p>請告訴我們您對這條導覽路線的看法，協助我們規劃下一條路線。</p>"),
         action="https://example.org/survey/water-and-light",
         action_title=("Take the survey", "Responder la encuesta", "填寫問卷")),
    # Shown to a signed-in member within 30 days of the card's expiry (CMS placeholders).
    dict(nid="6003", message_type="member_expiration", persistent=False, tour_exit=None,
         expiration_threshold=2592000,
         title=("Time to renew, %FIRST_NAME%", "Es hora de renovar, %FIRST_NAME%",
                "%FIRST_NAME%，該續訂會籍了"),
         message=("<p>Your membership ends on %EXPIRATION_DATE%. Renew at the front desk or online "
                  "and keep your free admission.</p>",
                  "<p>Su membresía termina el %EXPIRATION_DATE%. Renuévela en el mostrador o en "
                  "línea y conserve la entrada gratuita.</p>",
                  "<p>您的會籍將於 %EXPIRATION_DATE% 到期。請在服務台或網上續訂，繼續享有免費入場。</p>"),
         action="https://example.org/membership/renew?member=%CARD_ID%",
         action_title=("Renew", "Renovar", "續訂")),
]

# A membership service answer for trying the member card offline: point `member_card_url`
# at this file and any member ID and ZIP code sign in as this fictional member.
MEMBER_CARD_DEMO = """<?xml version="1.0" encoding="UTF-8"?>
<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="urn:xmethods-delayed-quotes">
  <SOAP-ENV:Body>
    <ns1:member_soap_retrieveResponse>
      <response_object>
        <ResultCode>0</ResultCode>
        <Memberships>
          <Member-1>
            <PrimaryConstituentID>20260417</PrimaryConstituentID>
            <MemberLevel>Sustaining Fellow Silver</MemberLevel>
            <Expiration>12/31/2035</Expiration>
            <CardHolder>Ines Calloway</CardHolder>
          </Member-1>
          <Member-2>
            <CardHolder>Tomas Calloway</CardHolder>
          </Member-2>
        </Memberships>
      </response_object>
    </ns1:member_soap_retrieveResponse>
  </SOAP-ENV:Body>
</SOAP-ENV:Envelope>
"""

EXHIBITIONS = [
    dict(id=7101, gallery="g101", title="Tidewater: Painting the Working Harbour",
         short="Two centuries of painters who set up their easels on the quays.",
         slug="tidewater", start=(2025, 3, 1), end=(2035, 12, 31)),
    dict(id=7102, gallery="g10", title="Indigo: A Colour That Crossed Oceans",
         short="Cloth dyed blue, from home looms to contemporary studios.",
         slug="indigo", start=(2025, 6, 14), end=(2036, 6, 30)),
    dict(id=7103, gallery="ost", title="Tomasz Orlik and the Fog",
         short="Photographs made in the grey hours before the fishing fleet sails.",
         slug="orlik-fog", start=(2025, 9, 20), end=(2037, 1, 10)),
    dict(id=7104, gallery="g302", title="Folded Worlds: Paper in Contemporary Art",
         short="Boats, masks and rooms made from a material we throw away.",
         slug="folded-worlds", start=(2025, 11, 8), end=(2038, 3, 1)),
    # Shown in a closed gallery and not curated in appData `exhibitions`:
    # readers list it last and without a map location.
    dict(id=7105, gallery="g303", title="Designing the Floating Theatre",
         short="Henrike Lassen&#039;s unbuilt theatre on a barge, in drawings and models.",
         slug="floating-theatre", start=(2025, 4, 5), end=(2036, 9, 30)),
]
CMS_EXHIBITIONS = [  # curated order in appData (ids as int or numeric string)
    {"exhibition_id": 7103, "sort": 0},
    {"exhibition_id": "7101", "sort": 1},
    {"exhibition_id": 7102, "sort": "2"},
    {"exhibition_id": 7104, "sort": 3,
     "image_url": "https://example.org/img/exhibitions/folded-worlds-mobile.jpg?fm=jpg"},
]

EVENTS = [
    dict(key="talk", weekday=1, start=(14, 0), end=(14, 45),
         title="Gallery Talk: Looking Slowly",
         short="Spend 45 minutes with a single work of art and an educator.",
         description="<p>Each week an educator chooses <em>one</em> work in the collection and "
                     "looks at it slowly with you.</p><p>Free with museum admission.</p>",
         location="Gallery 104 (Lantern Court)", button_text=None, button_url=None),
    dict(key="sketch", weekday=3, start=(18, 0), end=(19, 30),
         title="Evening Sketching in the Galleries",
         short="Pencils, paper and stools provided; all levels welcome.",
         description="<p>Draw from the collection after hours.</p><ul><li>Materials "
                     "provided</li><li>Ages 16 and up</li></ul>",
         location="Gallery 201", button_text="Register",
         button_url="https://example.org/events/evening-sketching"),
    dict(key="family", weekday=5, start=(10, 30), end=(12, 0),
         title="Family Studio: Make a Paper Boat",
         short="Fold, decorate and launch a paper boat inspired by the collection.",
         description="<p>A drop-in workshop for children aged 4 to 11 and their grown-ups.</p>"
                     "<p><strong>Free</strong>, no registration needed.</p>",
         location="Family Studio, lower level", button_text="Learn more",
         button_url="https://example.org/events/family-studio"),
]
EVENTS_FIRST = datetime.date(2026, 1, 1)
EVENTS_LAST = datetime.date(2036, 12, 31)

# Artworks returned by the static search that have no CMS record (see §d.3).
API_ONLY_ARTWORKS = [
    dict(id=87501, title="Study of Rigging", artist="Mara Velden\nDutch, 1871–1934",
         gallery="g101", on_view=True, image_id="5f3c1a2e-7b41-4c0d-9e12-0a6b8d4f2c11",
         xy=(1000, 1300)),
    dict(id=87502, title="Gull Feather, Enlarged", artist="Mireille Dufort\nFrench, born 1949",
         gallery="ost", on_view=True, image_id=None, xy=None),
    dict(id=87503, title="Lantern Shade", artist="Henrike Lassen\nDanish, 1905–1990",
         gallery="g303", on_view=True, image_id="a81d4e77-3c2b-4f6a-8b90-1e5d7c3a9f02",
         xy=(1500, 1170)),
    dict(id=87504, title="Harbour Sketchbook", artist="Mara Velden\nDutch, 1871–1934",
         gallery=None, on_view=False, image_id="c2e9b6a0-4d18-4b7e-a3f5-9d0c8e1b7a63", xy=None),
]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def chicago_offset(d, hour=12):
    """UTC offset string for Chicago local time (US DST rules since 2007)."""
    def nth_sunday(year, month, n):
        first = datetime.date(year, month, 1)
        return first + datetime.timedelta(days=(6 - first.weekday()) % 7 + 7 * (n - 1))
    dst_start = nth_sunday(d.year, 3, 2)
    dst_end = nth_sunday(d.year, 11, 1)
    in_dst = (dst_start < d < dst_end) or (d == dst_start and hour >= 2) or \
             (d == dst_end and hour < 1)
    return "-05:00" if in_dst else "-06:00"


def iso(d, hour=0, minute=0):
    return f"{d.isoformat()}T{hour:02d}:{minute:02d}:00{chicago_offset(d, hour)}"


def speakable(text):
    text = html.unescape(text).replace("\r\n", " ").replace("\r", " ").replace("\t", " ")
    return " ".join(text.split())


def dump_json(path, data, compact=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        if compact:
            json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        else:
            json.dump(data, f, ensure_ascii=False, indent=2)
        f.write("\n")


def spread(rect, n, index):
    """Position of item `index` of `n` spread over a room (PDF points)."""
    x0, y0, x1, y1 = rect
    cols = max(1, math.ceil(math.sqrt(n * (x1 - x0) / (y1 - y0))))
    rows = math.ceil(n / cols)
    c, r = index % cols, index // cols
    return (x0 + (x1 - x0) * (c + 0.5) / cols, y1 - (y1 - y0) * (r + 0.5) / rows)


# ---------------------------------------------------------------------------
# Build appData
# ---------------------------------------------------------------------------

class Builder:
    def __init__(self):
        self.audio = {}          # nid(str) -> record
        self.audio_jobs = []     # (nid, lang, text)
        self.next_audio = {"commentary": 2001, "intro": 3001, "stop": 3101, "bumper": 3201}
        self.bumper_by_text = {}

    def add_audio(self, kind, title, texts, titles=None, track_title=None, nid_as_str=False):
        nid = self.next_audio[kind]
        self.next_audio[kind] += 1
        titles = titles or (title, title, title)
        rec = {
            "nid": str(nid) if nid_as_str else nid,
            "title": title,
            "audio_file_url": f"audio/{nid}-en.mp3",
            "audio_transcript": texts[0],
        }
        if track_title:
            rec["track_title"] = track_title
        rec["translations"] = []
        for lang, text, ttl in zip(LANGS[1:], texts[1:], titles[1:]):
            rec["translations"].append({
                "language": lang,
                "title": title,
                "track_title": ttl,
                "audio_file_url": f"audio/{nid}-{lang}.mp3",
                "audio_transcript": text,
            })
        self.audio[str(nid)] = rec
        for lang, text in zip(LANGS, texts):
            self.audio_jobs.append((nid, lang, speakable(text)))
        return nid

    def build(self):
        app = {}
        app["dashboard"] = {"featured_tours": ["4001", "4002"],
                            "featured_exhibitions": [7101, 7103]}
        app["general_info"] = self.general_info()
        app["galleries"] = self.galleries()
        objects, self.object_index = self.objects()
        app["objects"] = objects
        tours = self.tours()
        app["audio_files"] = dict(sorted(self.audio.items(), key=lambda kv: int(kv[0])))
        app["tours"] = tours
        app["map_floors"] = {
            f"map_floor{i}": {
                "label": FLOOR_LABELS[i],
                "floor_plan": f"maps/floor{i}.pdf",
                "anchor_pixel_1": ANCHOR_PIXEL_1,
                "anchor_pixel_2": ANCHOR_PIXEL_2,
                "anchor_location_1": ANCHOR_LOCATION_1,
                "anchor_location_2": ANCHOR_LOCATION_2,
                "tile_images": None,
            } for i in range(4)}
        app["map_annontations"] = self.annotations()
        app["messages"] = self.messages()
        app["tour_categories"] = {
            k: {"category": v[0], "translations": [{"language": "es", "category": v[1]},
                                                   {"language": "zh-hant", "category": v[2]}]}
            for k, v in TOUR_CATEGORIES.items()}
        app["exhibitions"] = CMS_EXHIBITIONS
        app["data"] = {
            "image_server_url": "https://example.org/iiif/2",
            "data_api_url": "",
            "exhibitions_endpoint": "search/exhibitions.json",
            "artworks_endpoint": "api/artworks",
            "galleries_endpoint": "api/galleries",
            "images_endpoint": "api/images",
            "events_endpoint": "search/events.json",
            "events_endpoint_v2": "search/events.json",
            "autocomplete_endpoint": "search/autocomplete.json",
            "tours_endpoint": "api/tours",
            "multisearch_endpoint": "search/msearch.json",
            "membership_url": "https://example.org/membership?utm_source=docent",
            "website_url": "https://example.org/?utm_source=docent",
            "tickets_url": "https://example.org/tickets?utm_source=docent",
        }
        app["search"] = {
            "search_strings": {"0": "Highlights of the Wrenfield", "2": "Harbour",
                               "4": "Tapestry", "7": "Mara Velden"},
            "search_objects": [
                self.object_index["Harbour at First Light"]["nid"],
                str(self.object_index["Tide Table"]["nid"]),
                self.object_index["The Hunt of the White Stag"]["nid"],
                self.object_index["A Thousand Paper Boats"]["nid"],
                self.object_index["Night Ferry"]["nid"],
            ],
        }
        return app

    def general_info(self):
        gi = {"nid": "1", "title": "General Info", "status": "1", "type": "general_info"}
        trans = []
        for i, lang in enumerate(LANGS[1:], start=1):
            t = {"language": lang}
            for key, texts in GENERAL_INFO.items():
                t[key] = texts[i]
            trans.append(t)
        gi["translations"] = trans
        for key, texts in GENERAL_INFO.items():
            gi[key] = texts[0]
        return gi

    def galleries(self):
        out = {}
        for g in GALLERIES:
            x, y = centre(g["rect"])
            g["xy"] = (x, y)
            out[str(g["nid"])] = {
                "nid": g["nid"],
                "title": g["title"],
                "gallery_id": g["gid"],
                "closed": bool(g.get("closed", False)),
                "location": latlon(x, y),
                "floor": g["floor_value"],
            }
        return out

    def objects(self):
        out, index = {}, {}
        per_gallery = {}
        for a in ARTWORKS:
            per_gallery.setdefault(a["gallery"], []).append(a)
        nid = 1101
        for a in ARTWORKS:
            g = GAL[a["gallery"]]
            siblings = per_gallery[a["gallery"]]
            x, y = spread(g["rect"], len(siblings), siblings.index(a))
            inset = 0.78  # keep pins off the walls
            cx, cy = centre(g["rect"])
            x, y = cx + (x - cx) * inset, cy + (y - cy) * inset
            plain = html.unescape(a["title"])
            commentary = []
            first = self.add_audio(
                "commentary", plain, (a["en"], a["es"], a["zh"]),
                titles=(plain, a["title_es"], a["title_zh"]),
                track_title=plain if nid % 3 == 0 else None)
            commentary.append({"object_selector_number": a["numbers"][0], "audio": str(first)})
            audio_ids = [first]
            if a["extra"]:
                e = a["extra"]
                second = self.add_audio("commentary", e["title"], (e["en"], e["es"], e["zh"]),
                                        titles=(e["title"], e["title_es"], e["title_zh"]),
                                        track_title=e["title"])
                commentary.append({"object_selector_number": a["numbers"][1],
                                   "audio": str(second)})
                audio_ids.append(second)
            rec = {"nid": str(nid) if nid % 7 == 0 else nid}
            if a["cid"]:
                rec["id"] = a["cid"]
            rec.update({
                "title": a["title"],
                "location": latlon(x, y, space=True),
                "gallery_location": g["title"],
                "artist_culture_place_delim": a["artist"],
                "date_display": a["date"],
                "medium_display": a["medium"],
                "credit_line": a["credit"],
            })
            if a["copyright"]:
                rec["copyright_notice"] = a["copyright"]
            picture = PICTURES.get(a["title"], IMAGE)
            rec.update({
                "image_url": picture,
                "thumbnail_full_path": picture,
                "large_image_full_path": picture,
                "audio_commentary": commentary,
            })
            out[str(nid)] = rec
            index[plain] = dict(nid=nid, record=rec, gallery=g, audio=audio_ids, xy=(x, y),
                                art=a)
            nid += 1
        return out, index

    def tours(self):
        out = []
        for t in TOURS:
            start = GAL[t["start"]]
            intro_audio = self.add_audio(
                "intro", "Introduction: " + html.unescape(t["title"][0]), t["audio"],
                titles=tuple("%s: %s" % (p, ttl) for p, ttl in
                             zip(("Introduction", "Introducción", "導覽介紹"), t["title"])))
            string_refs = isinstance(t["nid"], str)
            ref = (lambda v: str(v)) if string_refs else (lambda v: v)
            stops = []
            prev_gallery = None
            for i, (obj_title, stop_audio) in enumerate(t["stops"]):
                o = self.object_index[html.unescape(obj_title)]
                if stop_audio == "c0":
                    audio_id = o["audio"][0]
                elif stop_audio == "c1":
                    audio_id = o["audio"][1]
                else:
                    audio_id = self.add_audio(
                        "stop", stop_audio["title"],
                        (stop_audio["en"], stop_audio["es"], stop_audio["zh"]))
                if i == 0 and t.get("no_first_bumper"):
                    bumper = None
                else:
                    texts = bumper_text(prev_gallery, o["gallery"], first=(i == 0))
                    bumper = self.bumper_by_text.get(texts[0])
                    if bumper is None:
                        where = html.unescape(o["gallery"]["title"])
                        bumper = self.add_audio(
                            "bumper", "Directions: " + where, texts,
                            titles=("Walk to " + where, "Camino a " + o["gallery"]["es"],
                                    "前往" + o["gallery"]["zh"]),
                            nid_as_str=True)
                        self.bumper_by_text[texts[0]] = bumper
                prev_gallery = o["gallery"]
                stops.append({
                    "sort": i * t.get("sort_step", 1),
                    "object": ref(o["nid"]),
                    "audio_id": ref(audio_id),
                    "audio_bumper": ref(bumper) if bumper is not None else None,
                })
            # A tour's picture: its first stop's that has one of its own (the banner on its page).
            banner = next((PICTURES[html.unescape(title)] for title, _ in t["stops"]
                           if html.unescape(title) in PICTURES), IMAGE)
            rec = {
                "nid": t["nid"],
                "type": "tour",
                "title": t["title"][0],
                "weight": t["weight"],
                "image_url": banner,
                "thumbnail_full_path": IMAGE,
                "large_image_full_path": IMAGE,
                "description": t["description"][0],
                "intro": t["intro"][0],
                "tour_audio": ref(intro_audio),
                "location": latlon(*start["xy"], space=True),
                "floor": t["floor"],
                "selector_number": t["selector"],
                "category": t["category"],
                "tour_duration": t["duration"][0],
                "tour_banner": t["banner"],
                "translations": [
                    {"language": lang, "title": t["title"][i], "description": t["description"][i],
                     "intro": t["intro"][i], "tour_duration": t["duration"][i],
                     "category": [c for c in TOUR_CATEGORIES.values()
                                  if c[0] == t["category"]][0][i]}
                    for i, lang in enumerate(LANGS) if i > 0],
                "tour_stops": stops,
            }
            out.append(rec)
        return out

    def annotations(self):
        out = {}
        nid = 5001
        for floor, x, y, atype, sub, label, desc in ANNOTATIONS:
            if atype == "Amenity":
                title = f"Floor {FLOOR_LABELS[floor]} - {sub}" + (f" - {label}" if label else "")
            elif atype == "Department":
                title = f"Floor {FLOOR_LABELS[floor]} - Department - {label}"
            elif sub == "Space":
                title = f"Floor {FLOOR_LABELS[floor]} - Space - {label}"
            else:
                title = f"{sub} - {label}"
            title = title.replace("\r\n", " ")
            out[str(nid)] = {
                "title": title,
                "nid": str(nid),
                "type": "map_annotation",
                # one annotation carries a space after the comma, like real data
                "location": latlon(x, y, space=(nid == 5010)),
                "floor": None if floor is None else str(floor),
                "description": desc,
                "label": label,
                "annotation_type": atype,
                "text_type": sub if atype == "Text" else None,
                "amenity_type": sub if atype == "Amenity" else None,
                "image_url": IMAGE if (atype == "Department" or sub == "Dining") else None,
            }
            nid += 1
        return out

    def messages(self):
        out = {}
        for m in MESSAGES:
            rec = {
                "nid": m["nid"],
                "message_type": m["message_type"],
                "persistent": m["persistent"],
                "title": m["title"][0],
                "message": m["message"][0],
                "action": m["action"],
                "action_title": m["action_title"][0],
                "tour_exit": m["tour_exit"],
                "expiration_threshold": m.get("expiration_threshold"),
                "translations": [
                    {"language": lang, "title": m["title"][i], "message": m["message"][i],
                     "action_title": m["action_title"][i]}
                    for i, lang in enumerate(LANGS) if i > 0],
            }
            out[m["nid"]] = rec
        return out


# ---------------------------------------------------------------------------
# Data-Aggregator style responses
# ---------------------------------------------------------------------------

API_INFO = {
    "license_text": "Fictional sample data made for Docent. Free to use with the project.",
    "license_links": ["https://example.org/license"],
    "version": "1.0",
}
API_CONFIG = {"iiif_url": "https://example.org/iiif/2", "website_url": "https://example.org"}


def search_response(items, limit=None):
    n = len(items)
    limit = limit if limit is not None else max(n, 1)
    return {
        "preference": None,
        "pagination": {"total": n, "limit": limit, "offset": 0,
                       "total_pages": max(1, math.ceil(n / limit)), "current_page": 1},
        "data": items,
        "info": API_INFO,
        "config": API_CONFIG,
    }


def exhibition_items():
    out = []
    for e in EXHIBITIONS:
        out.append({
            "_score": 1.0,
            "id": e["id"],
            "title": e["title"],
            "short_description": e["short"],
            "image_url": f"https://example.org/img/exhibitions/{e['slug']}.jpg?fm=jpg&q=80",
            "gallery_id": int(GAL[e["gallery"]]["gid"]),
            "web_url": f"https://example.org/exhibitions/{e['id']}/{e['slug']}",
            "aic_start_at": iso(datetime.date(*e["start"])),
            "aic_end_at": iso(datetime.date(*e["end"])),
        })
    out.sort(key=lambda i: (i["aic_start_at"], i["aic_end_at"]))
    return out


def event_items():
    ns = uuid.UUID("6f1c7a52-3e0b-4d8e-9a51-2b7c4f0e8d31")
    items = []
    d = EVENTS_FIRST
    while d <= EVENTS_LAST:
        for e in EVENTS:
            if d.weekday() == e["weekday"]:
                items.append({
                    "id": str(uuid.uuid5(ns, f"{e['key']}/{d.isoformat()}")),
                    "title": e["title"],
                    "short_description": e["short"],
                    "description": e["description"],
                    "image_url": f"https://example.org/img/events/{e['key']}.jpg?fm=jpg",
                    "location": e["location"],
                    "start_at": iso(d, *e["start"]),
                    "end_at": iso(d, *e["end"]),
                    "button_text": e["button_text"],
                    "button_url": e["button_url"],
                    "is_private": False,
                })
        d += datetime.timedelta(days=1)
    return items


def msearch(builder):
    hits = []
    for title, o in builder.object_index.items():
        cid = o["art"]["cid"]
        if not cid:
            continue
        g = o["gallery"]
        hits.append({
            "_score": 10.0,
            "id": cid,
            "is_on_view": True,
            "title": title,
            "artist_display": o["art"]["artist"].replace("|", "\n"),
            "image_id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"https://example.org/art/{cid}")),
            "gallery_id": int(g["gid"]),
            "latlon": latlon(*o["xy"]),
        })
    for a in API_ONLY_ARTWORKS:
        hits.append({
            "_score": 5.0,
            "id": a["id"],
            "is_on_view": a["on_view"],
            "title": a["title"],
            "artist_display": a["artist"],
            "image_id": a["image_id"],
            "gallery_id": int(GAL[a["gallery"]]["gid"]) if a["gallery"] else None,
            "latlon": latlon(*a["xy"]) if a["xy"] else None,
        })
    tours = [{"_score": 3.0, "id": int(t["nid"]), "title": t["title"][0]} for t in TOURS]
    return [search_response(hits, 99), search_response(tours, 99),
            search_response(exhibition_items(), 99)]


AUTOCOMPLETE = [
    "Harbour at First Light", "Harbour Crane", "Harbour Sketchbook",
    "Highlights of the Wrenfield", "Hollis Brandt", "The Hunt of the White Stag",
    "Tidewater: Painting the Working Harbour", "Tide Table",
]


# ---------------------------------------------------------------------------
# Floor-plan PDFs (hand-written, uncompressed, one 2400x2400 pt page)
# ---------------------------------------------------------------------------

class Canvas:
    def __init__(self):
        self.ops = []

    def _n(self, v):
        s = f"{v:.2f}".rstrip("0").rstrip(".")
        return s if s != "-0" else "0"

    def fill(self, rgb):
        self.ops.append("%s %s %s rg" % tuple(self._n(c) for c in rgb))

    def stroke(self, rgb, width=1.0, dash=None):
        self.ops.append("%s %s %s RG" % tuple(self._n(c) for c in rgb))
        self.ops.append(f"{self._n(width)} w")
        self.ops.append(f"[{' '.join(self._n(d) for d in dash)}] 0 d" if dash else "[] 0 d")

    def rect(self, r, op):
        x0, y0, x1, y1 = r
        self.ops.append(f"{self._n(x0)} {self._n(y0)} {self._n(x1 - x0)} {self._n(y1 - y0)} re {op}")

    def line(self, x0, y0, x1, y1):
        self.ops.append(f"{self._n(x0)} {self._n(y0)} m {self._n(x1)} {self._n(y1)} l S")

    def text(self, x, y, size, s, rgb=(0.2, 0.2, 0.2), rotate=False, center=True):
        raw = s.encode("cp1252")
        width = 0.5 * size * len(raw)  # rough Helvetica width, good enough to centre labels
        esc = "".join(
            "\\" + chr(b) if chr(b) in "()\\" else (chr(b) if 32 <= b < 127 else "\\%03o" % b)
            for b in raw)
        self.fill(rgb)
        if rotate:
            tx, ty = (x, y - width / 2) if center else (x, y)
            self.ops.append(f"BT /F1 {self._n(size)} Tf 0 1 -1 0 {self._n(tx)} {self._n(ty)} Tm ({esc}) Tj ET")
        else:
            tx = x - width / 2 if center else x
            self.ops.append(f"BT /F1 {self._n(size)} Tf {self._n(tx)} {self._n(y - size / 3)} Td ({esc}) Tj ET")

    def content(self):
        return ("\n".join(self.ops) + "\n").encode("latin-1")


def write_pdf(path, content, title):
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 2400 2400] /TrimBox [0 0 2400 2400] "
        b"/Rotate 0 /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"endstream",
        b"<< /Title (" + title.encode("latin-1") + b") /Producer (Docent make_sampledata.py) >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n".encode()
    out += b"0000000000 65535 f \n"
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R /Info {len(objs)} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    with open(path, "wb") as f:
        f.write(out)


WALL = (0.15, 0.15, 0.18)
STREET = (0.86, 0.86, 0.84)
WATER = (0.80, 0.89, 0.95)
GREEN = (0.84, 0.92, 0.82)
FLOORING = (0.97, 0.96, 0.92)
GALLERY_FILL = (1.0, 1.0, 1.0)
SERVICE_FILL = (0.93, 0.93, 0.95)
CLOSED_FILL = (0.82, 0.82, 0.82)


def floor_plan(floor):
    c = Canvas()
    # surroundings: streets, harbour water, gardens (same on every floor)
    c.fill(WATER)
    c.rect((1950, 0, 2400, 2400), "f")
    c.fill(STREET)
    for r in [(620, 0, 700, 2400), (0, 680, 1950, 760), (0, 1640, 1950, 1720),
              (1740, 0, 1820, 2400)]:
        c.rect(r, "f")
    c.fill(GREEN)
    c.rect((1000, 770, 1400, 850), "f")
    c.rect((820, 1560, 1180, 1635), "f")
    c.text(2175, 1200, 36, "HARBOUR", rgb=(0.35, 0.5, 0.65))
    c.text(660, 1950, 22, "Harbour Avenue", rotate=True, rgb=(0.45, 0.45, 0.45))
    c.text(1780, 1950, 22, "Quay Drive", rotate=True, rgb=(0.45, 0.45, 0.45))
    c.text(400, 720, 22, "Wren Street", rgb=(0.45, 0.45, 0.45))
    c.text(400, 1680, 22, "Lantern Street", rgb=(0.45, 0.45, 0.45))
    c.text(1200, 800, 16, "Reed Garden", rgb=(0.3, 0.45, 0.3))
    c.text(1000, 1597, 16, "Sculpture Lawn", rgb=(0.3, 0.45, 0.3))
    # building footprint
    c.fill(FLOORING)
    for r in WINGS[floor]:
        c.rect(r, "f")
    c.stroke(WALL, 6)
    for r in WINGS[floor]:
        c.rect(r, "S")
    # other rooms
    for f, r, label, style in OTHER_ROOMS:
        if f != floor:
            continue
        if style == "terrace":
            c.fill(GREEN)
            c.rect(r, "f")
            c.stroke(WALL, 2, dash=(12, 8))
            c.rect(r, "S")
        elif style == "void":
            c.stroke(WALL, 2, dash=(6, 6))
            c.rect(r, "S")
        else:
            c.fill(SERVICE_FILL)
            c.rect(r, "f")
            c.stroke(WALL, 2.5)
            c.rect(r, "S")
        cx, cy = centre(r)
        c.text(cx, cy, 16, label.replace("é", "e"))
    if floor == 2:  # open to the court below
        c.stroke(WALL, 1.5, dash=(6, 6))
        c.rect((1100, 1200, 1300, 1240), "S")
    # core: stairs, elevator, restrooms
    c.fill(SERVICE_FILL)
    c.rect(CORE, "f")
    c.stroke(WALL, 2.5)
    c.rect(CORE, "S")
    for x in (1135, 1185, 1240):
        c.line(x, CORE[1], x, CORE[3])
    c.stroke(WALL, 1)
    for i in range(6):  # stair treads in the elevator/stair bay
        c.line(1085, 1384 + i * 9, 1100, 1384 + i * 9)
    # galleries
    for g in GALLERIES:
        if g["floor"] != floor:
            continue
        r = g["rect"]
        c.fill(CLOSED_FILL if g.get("closed") else GALLERY_FILL)
        c.rect(r, "f")
        c.stroke(WALL, 3.5)
        c.rect(r, "S")
        if g.get("closed"):  # hatch, clipped to the room
            c.ops.append("q")
            c.rect(r, "W n")
            c.stroke((0.55, 0.55, 0.55), 1)
            h = r[3] - r[1]
            for k in range(0, int(r[2] - r[0] + h), 30):
                c.line(r[0] + k, r[1], r[0] + k - h, r[3])
            c.ops.append("Q")
        # door gaps: a short light line on the wall facing the corridor/court
        c.stroke(FLOORING, 5)
        cx, cy = centre(r)
        if r[2] <= 1080:
            c.line(r[2], cy - 25, r[2], cy + 25)
        elif r[0] >= 1320:
            c.line(r[0], cy - 25, r[0], cy + 25)
        else:
            c.line(cx - 25, r[1], cx + 25, r[1])
        c.text(cx, cy, 22, g["label"], rgb=(0.1, 0.1, 0.1))
    # corridors: thin dashed centre lines between wings
    c.stroke((0.6, 0.6, 0.6), 1, dash=(4, 10))
    if floor < 3:
        c.line(1070, 1190, 1330, 1190)
    if floor == 1:  # main entrance on Wren Street side
        c.stroke(FLOORING, 8)
        c.line(1460, 860, 1520, 860)
        c.text(1490, 835, 16, "Main Entrance")
    c.text(1200, 2250, 40, f"{MUSEUM} - Level {FLOOR_LABELS[floor]}", rgb=(0.1, 0.1, 0.1))
    c.text(1200, 2200, 18, "Fictional sample floor plan for Docent. North is up.",
           rgb=(0.4, 0.4, 0.4))
    return c.content()


# ---------------------------------------------------------------------------
# Audio
# ---------------------------------------------------------------------------

def synthesize(job, tmpdir, audio_dir):
    nid, lang, text = job
    wav = os.path.join(tmpdir, f"{nid}-{lang}.wav")
    mp3 = os.path.join(audio_dir, f"{nid}-{lang}.mp3")
    subprocess.run(["espeak-ng", "-v", VOICES[lang], "-s", str(SPEED[lang]), "-w", wav, text],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = (os.path.getsize(wav) - 44) / (2 * 22050)
    subprocess.run(["lame", "--quiet", "-m", "m", "--resample", "16", "-b", "16",
                    "--noreplaygain", "--tt", f"{nid} {lang}", "--ta", MUSEUM, wav, mp3],
                   check=True)
    os.remove(wav)
    return nid, lang, seconds


def make_audio(jobs, audio_dir):
    for tool in ("espeak-ng", "lame"):
        if shutil.which(tool) is None:
            sys.exit(f"error: {tool} is not installed")
    os.makedirs(audio_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda j: synthesize(j, tmp, audio_dir), jobs))
    return results


# ---------------------------------------------------------------------------

README = """# Docent sample data: the Wrenfield Museum of Art

The **Wrenfield Museum of Art** is a fictional harbour-side art museum made up for
Docent's tests, demos and benchmarks. Everything in this folder — the museum, its
galleries, artists, artworks, texts, tours, events, exhibitions, floor plans and
narrations — is our own invention. Any resemblance to real people or works is
accidental. Only the *file format* follows the AIC mobile-app data (v2 `appData`,
Data-Aggregator-style search responses), including its quirks.

The building is placed on the map with the same two geo anchors the AIC sample
uses, so the map area is the same as the reference data; the museum itself is not
a real place.

## Contents

* `appData.json` — the v2 app document: {n_galleries} galleries on four floors (LL, 1,
  2, 3; Gallery 303 is closed), {n_objects} artworks ({n_hidden} of them in the closed
  gallery), {n_audio} narrations, {n_tours} tours, map annotations, messages, general
  info and search suggestions. English at top level, Spanish (`es`) and Chinese
  (`zh-hant`) translations.
* `audio/<nid>-<lang>.mp3` — every narration in English, Spanish and Chinese,
  synthesised with espeak-ng and encoded with lame (16 kHz mono, 16 kbit/s). Each
  transcript is exactly what is spoken (after decoding HTML entities).
* `maps/floor0.pdf` … `maps/floor3.pdf` — 2400×2400 pt vector floor plans,
  geo-registered by the anchors in `map_floors`.
* `member/demo-card.xml` — a membership service answer for trying the member card
  offline: set `member_card_url` to this file's path and any member ID and ZIP code sign in
  as a fictional member (a real service checks them).
* `search/exhibitions.json`, `search/events.json`, `search/msearch.json`,
  `search/autocomplete.json` — static stand-ins for the Data Aggregator API. Events
  repeat weekly from 2026-01-01 to 2036-12-31; exhibitions run from 2025 into the
  2030s, so both are always "current" in that period.

All URLs in `appData.json` are relative to the document (`audio/…`, `maps/…`,
`search/…`; `data_api_url` is empty); the `https://example.org/…` links are
placeholders. Five artworks have pictures (`images/*.png`, drawn by
`scripts/make-sample-pictures.py`); the others point at `images/none.png`, which does not exist.

Test hooks worth knowing: keypad number {shared} is shared by two artworks; one
tapestry has two numbers ({two}); the highlights tour answers to keypad {tour_number};
the first stop of the family tour has no bumper.

## Regenerating

    python3 scripts/make_sampledata.py

Requires Python 3, `espeak-ng` and `lame`. The output is deterministic.
`scripts/gen_large_appdata.py OUT.json` makes a large synthetic document for
benchmarks (not stored here).

## Licence

Our own work, made for the Docent project; it may be used and redistributed with the
project under the project's licence.
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--skip-audio", action="store_true",
                    help="write JSON/PDF only and keep existing MP3s")
    args = ap.parse_args()

    b = Builder()
    app = b.build()

    for sub in ("maps", "search") + (() if args.skip_audio else ("audio",)):
        shutil.rmtree(os.path.join(OUT, sub), ignore_errors=True)
    os.makedirs(OUT, exist_ok=True)

    dump_json(os.path.join(OUT, "appData.json"), app)
    dump_json(os.path.join(OUT, "search", "exhibitions.json"),
              search_response(exhibition_items(), 99))
    events = event_items()
    dump_json(os.path.join(OUT, "search", "events.json"), search_response(events), compact=True)
    dump_json(os.path.join(OUT, "search", "msearch.json"), msearch(b))
    dump_json(os.path.join(OUT, "search", "autocomplete.json"), AUTOCOMPLETE)

    os.makedirs(os.path.join(OUT, "member"), exist_ok=True)
    with open(os.path.join(OUT, "member", "demo-card.xml"), "w", encoding="utf-8") as fh:
        fh.write(MEMBER_CARD_DEMO)

    os.makedirs(os.path.join(OUT, "maps"), exist_ok=True)
    for f in range(4):
        write_pdf(os.path.join(OUT, "maps", f"floor{f}.pdf"), floor_plan(f),
                  f"{MUSEUM} - Level {FLOOR_LABELS[f]}")

    shared = [k for k, v in _numbers(app).items() if len(v) > 1]
    two = [a for a in ARTWORKS if len(a["numbers"]) > 1][0]
    with open(os.path.join(OUT, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(README.format(
            n_galleries=len(app["galleries"]), n_objects=len(app["objects"]),
            n_hidden=sum(1 for a in ARTWORKS if GAL[a["gallery"]].get("closed")),
            n_audio=len(app["audio_files"]), n_tours=len(app["tours"]),
            shared=", ".join(shared), two=" and ".join(two["numbers"]),
            tour_number=TOURS[0]["selector"]))

    if not args.skip_audio:
        results = make_audio(b.audio_jobs, os.path.join(OUT, "audio"))
        durations = [s for _, _, s in results]
        print(f"audio: {len(results)} files, {min(durations):.1f}-{max(durations):.1f} s "
              f"(total {sum(durations) / 60:.1f} min)")
        for nid, lang, s in results:
            if s > 14:
                print(f"  note: {nid}-{lang} is {s:.1f} s long")
    print(f"appData: {len(app['galleries'])} galleries, {len(app['objects'])} objects, "
          f"{len(app['audio_files'])} audio files, {len(app['tours'])} tours, "
          f"{len(app['map_annontations'])} annotations; events: {len(events)}")


def _numbers(app):
    nums = {}
    for key, o in app["objects"].items():
        for c in o["audio_commentary"]:
            nums.setdefault(c["object_selector_number"], []).append(key)
    return nums


if __name__ == "__main__":
    main()
