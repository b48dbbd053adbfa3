/// What amenities are called in each UI language, so "baños", "洗手间", "restroom", "lift" or
/// "ascensor" all find them. The first name of each language is the one shown; the others are
/// synonyms a visitor may type. Chinese lists simplified and traditional forms (the data's
/// Chinese is often `zh-hant`, while visitors may type either): the Simplified name first, its
/// Traditional form second, which is the name shown in Traditional Chinese.
public enum AmenityNames {
    static let restroomEN = ["restroom", "restrooms", "toilet", "bathroom", "washroom", "lavatory", "wc"]
    static let restroomES = ["baños", "baño", "aseos", "servicios", "sanitarios"]
    static let restroomZH = ["洗手间", "洗手間", "厕所", "廁所", "卫生间", "衛生間"]
    static let restroomKO = ["화장실"]
    static let restroomFR = ["toilettes", "WC", "sanitaires"]

    /// Names by amenity and language; the first of each list is the display name.
    public static let table: [AmenityType: [Language: [String]]] = [
        .audioGuide: [
            .english: ["Audio Guide", "audio", "headphones"],
            .spanish: ["Audioguía", "audio", "auriculares"],
            .chinese: ["语音导览", "語音導覽", "导览", "導覽", "耳机", "耳機"],
            .korean: ["오디오 가이드", "오디오", "헤드폰"],
            .french: ["Audioguide", "audio", "casque"],
        ],
        .checkRoom: [
            .english: ["Check Room", "coat check", "cloakroom", "lockers", "bag check"],
            .spanish: ["Guardarropa", "consigna", "taquillas"],
            .chinese: ["衣帽间", "衣帽間", "寄存处", "寄存處"],
            .korean: ["물품 보관소", "보관소", "사물함"],
            .french: ["Vestiaire", "consigne", "casiers"],
        ],
        .dining: [
            .english: ["Dining", "restaurant", "cafe", "coffee", "food", "eat"],
            .spanish: ["Restaurantes", "restaurante", "cafetería", "comida", "café"],
            .chinese: ["餐饮", "餐飲", "餐厅", "餐廳", "咖啡", "咖啡厅", "咖啡廳"],
            .korean: ["식당 및 카페", "식당", "카페", "음식"],
            .french: ["Restauration", "restaurant", "café", "manger"],
        ],
        .escalator: [
            .english: ["Escalator", "escalators", "stairs"],
            .spanish: ["Escalera mecánica", "escaleras mecánicas", "escaleras"],
            .chinese: ["自动扶梯", "自動扶梯", "扶梯"],
            .korean: ["에스컬레이터", "계단"],
            .french: ["Escalator", "escaliers mécaniques", "escalier roulant"],
        ],
        .elevator: [
            .english: ["Elevator", "elevators", "lift"],
            .spanish: ["Ascensor", "ascensores", "elevador"],
            .chinese: ["电梯", "電梯", "升降机", "升降機"],
            .korean: ["엘리베이터", "승강기"],
            .french: ["Ascenseur", "ascenseurs"],
        ],
        .familyRestroom: [
            .english: ["Family Restroom", "baby changing"] + restroomEN,
            .spanish: ["Baño familiar", "cambiador"] + restroomES,
            .chinese: ["家庭洗手间", "家庭洗手間", "母婴室", "母嬰室"] + restroomZH,
            .korean: ["가족 화장실", "기저귀 교환대"] + restroomKO,
            .french: ["Toilettes familiales", "table à langer"] + restroomFR,
        ],
        .giftShop: [
            .english: ["Gift Shop", "shop", "store", "souvenirs", "books"],
            .spanish: ["Tienda de regalos", "tienda", "recuerdos", "librería"],
            .chinese: ["礼品店", "禮品店", "商店", "纪念品", "紀念品"],
            .korean: ["기념품점", "상점", "기념품"],
            .french: ["Boutique", "souvenirs", "librairie"],
        ],
        .information: [
            .english: ["Information", "info desk", "help desk"],
            .spanish: ["Información", "mostrador de información"],
            .chinese: ["问讯处", "問訊處", "服务台", "服務台", "咨询", "諮詢"],
            .korean: ["안내 데스크", "안내", "정보"],
            .french: ["Information", "accueil", "renseignements"],
        ],
        .membersLounge: [
            .english: ["Members Lounge", "members", "lounge"],
            .spanish: ["Salón de miembros", "socios", "miembros"],
            .chinese: ["会员休息室", "會員休息室", "会员", "會員"],
            .korean: ["회원 라운지", "회원", "라운지"],
            .french: ["Salon des membres", "membres", "salon"],
        ],
        .mensRoom: [
            .english: ["Men's Room", "mens room", "men"] + restroomEN,
            .spanish: ["Baño de hombres", "caballeros", "hombres"] + restroomES,
            .chinese: ["男洗手间", "男洗手間", "男厕", "男廁"] + restroomZH,
            .korean: ["남자 화장실", "남성"] + restroomKO,
            .french: ["Toilettes hommes", "hommes"] + restroomFR,
        ],
        .tickets: [
            .english: ["Tickets", "admission", "box office"],
            .spanish: ["Entradas", "boletos", "taquilla"],
            .chinese: ["售票处", "售票處", "门票", "門票"],
            .korean: ["매표소", "입장권", "티켓"],
            .french: ["Billetterie", "billets", "entrée"],
        ],
        .wheelchairRamp: [
            .english: ["Wheelchair Ramp", "ramp", "accessible", "accessibility"],
            .spanish: ["Rampa para silla de ruedas", "rampa", "accesible"],
            .chinese: ["轮椅坡道", "輪椅坡道", "无障碍", "無障礙"],
            .korean: ["휠체어 경사로", "경사로", "장애인 접근"],
            .french: ["Rampe d'accès", "rampe", "accessibilité", "fauteuil roulant"],
        ],
        .womensRoom: [
            .english: ["Women's Room", "womens room", "women", "ladies"] + restroomEN,
            .spanish: ["Baño de mujeres", "damas", "mujeres"] + restroomES,
            .chinese: ["女洗手间", "女洗手間", "女厕", "女廁"] + restroomZH,
            .korean: ["여자 화장실", "여성"] + restroomKO,
            .french: ["Toilettes femmes", "femmes", "dames"] + restroomFR,
        ],
    ]

    /// The name shown for `type` in `language` (English when the language has none).
    public static func name(_ type: AmenityType, _ language: Language) -> String {
        if language == .traditionalChinese, let zh = table[type]?[.chinese], zh.count > 1 { return zh[1] }
        return table[type]?[language]?.first ?? table[type]?[.english]?.first ?? type.rawValue
    }

    /// Every name and synonym of `type`, in every language.
    public static func allNames(_ type: AmenityType) -> [String] {
        guard let byLanguage = table[type] else { return [type.rawValue] }
        var out = [type.rawValue]
        for l in byLanguage.keys.sorted() { out += byLanguage[l] ?? [] }
        return out
    }
}
