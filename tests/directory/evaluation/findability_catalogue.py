"""Catalogue for the findability set: invented companies of Spain, searched by name.

Every name is made up (any likeness to a real company is chance). The names are written
as companies write them: accents, ñ, ç, l·l, apostrophes, hyphens, "&", dots and legal
forms in their various spellings, and abbreviations (Hnos., Cía., Sta., Ntra. Sra. ...)
in some names but in full in others. They are in Spanish, Basque, Catalan and Galician.

The companies come in small clusters: a company that a query in `findability.py` looks
for, next to two to four distractors that share a word, the start of a word, a surname
or a place with it. The distractors are what make the set hard. This module holds no
queries, and it was written without looking at how search is implemented.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Company:
    slug: str
    name: str
    alternative_names: tuple[str, ...] = ()


COMPANIES: tuple[Company, ...] = (
    # Ebanistería Ordóñez
    Company("ebanisteria-ordonez-e-hijos", "Ebanistería Ordóñez e Hijos, S.L."),
    Company("ordonez-asesores-fiscales", "Ordóñez Asesores Fiscales"),
    Company("ebanisteria-artesana-del-bierzo", "Ebanistería Artesana del Bierzo"),
    Company("hijos-de-julian-ordonez", "Hijos de Julián Ordóñez, S.A."),
    # Banks of the Meseta
    Company("banco-meseta-castellana", "Banco Meseta Castellana, S.A.", ("BMC", "Banco Meseta")),
    Company("banco-del-sil-y-mino", "Banco del Sil y Miño, S.A."),
    Company("castellana-de-seguros-y-reaseguros", "Castellana de Seguros y Reaseguros, S.A."),
    Company("caja-rural-del-tormes", "Caja Rural del Tormes, S. Coop. de Crédito"),
    Company("financiera-mesetaria", "Financiera Mesetaria, E.F.C., S.A."),
    Company("banco-rural-de-tierra-de-campos", "Banco Rural de Tierra de Campos, S.A."),
    Company("quesos-tierra-de-campos", "Quesos Tierra de Campos"),
    Company("campos-asesores-financieros", "Campos Asesores Financieros"),
    # Talleres Villarrubia
    Company("talleres-villarrubia", "Talleres Villarrubia, S.L."),
    Company("transportes-villarrubia-hermanos", "Transportes Villarrubia Hermanos, S.A."),
    Company("talleres-mecanicos-del-henares", "Talleres Mecánicos del Henares"),
    Company("recambios-villarreal", "Recambios Villarreal"),
    # Bodegas Monte-Encina
    Company("bodegas-monte-encina", "Bodegas Monte-Encina, S.A."),
    Company("bodegas-montesinos-hermanos", "Bodegas Montesinos Hermanos"),
    Company("la-encina-gourmet", "La Encina Gourmet"),
    Company("vinedos-del-monte-aragon", "Viñedos del Monte Aragón, S.L."),
    # L'Avellaner del Camp
    Company("lavellaner-del-camp", "L'Avellaner del Camp, S.C.C.L."),
    Company("fruits-del-camp-de-tarragona", "Fruits del Camp de Tarragona, S.L."),
    Company("avellanes-i-ametlles-rius", "Avellanes i Ametlles Rius"),
    Company("cooperativa-del-camp-de-vilalba-alta", "Cooperativa del Camp de Vilalba Alta"),
    # Ferrándiz & Olmedo
    Company("ferrandiz-olmedo-abogados", "Ferrándiz & Olmedo Abogados, S.L.P."),
    Company("olmedo-consultores-tributarios", "Olmedo Consultores Tributarios"),
    Company("ferrandiz-asociados-abogados", "Ferrándiz Asociados, Abogados"),
    Company("del-olmo-abogados", "Del Olmo Abogados"),
    # Instal·lacions Pujol
    Company("installacions-electriques-pujol", "Instal·lacions Elèctriques Pujol, S.L."),
    Company("instalaciones-electricas-puyol-hermanos", "Instalaciones Eléctricas Puyol Hermanos"),
    Company("fusteria-pujol-i-fills", "Fusteria Pujol i Fills"),
    Company("electrica-del-valles", "Elèctrica del Vallès, S.A."),
    # Metal·lúrgica Vallesana
    Company("metallurgica-vallesana", "Metal·lúrgica Vallesana, S.A."),
    Company("metalurgica-del-nalon", "Metalúrgica del Nalón, S.A."),
    Company("vallesana-de-transports", "Vallesana de Transports, S.L."),
    Company("metalls-guasch", "Metalls Guasch"),
    # Il·lumina
    Company("illumina-estudi-de-disseny", "Il·lumina Estudi de Disseny", ("Il·lumina",)),
    Company("lumina-fotografia", "Lumina Fotografía"),
    Company("estudi-de-disseny-marti", "Estudi de Disseny Martí"),
    Company("iluminacion-levante", "Iluminación Levante, S.L."),
    # Vil·la Rosalia
    Company("hotel-villa-rosalia", "Hotel Vil·la Rosalia"),
    Company("hotel-los-rosales", "Hotel Los Rosales"),
    Company("apartamentos-villa-rosa", "Apartamentos Villa Rosa"),
    Company("peluqueria-rosalia", "Peluquería Rosalía"),
    # Paral·lel
    Company("parallel-arquitectura", "Paral·lel Arquitectura, S.L.P."),
    Company("reformas-paralelo", "Reformas Paralelo"),
    Company("arquitectura-sud-associats", "Arquitectura Sud Associats"),
    # Construcciones Urquiza
    Company("construcciones-urquiza", "Construcciones Urquiza, S.A."),
    Company("promociones-inmobiliarias-urquiza", "Promociones Inmobiliarias Urquiza, S.L."),
    Company("construcciones-y-contratas-del-norte", "Construcciones y Contratas del Norte, S.A."),
    Company("urquia-arquitectos", "Urquía Arquitectos, S.L.P."),
    # Agro Manchega
    Company("agro-manchega-de-cereales", "Agro Manchega de Cereales, S.L."),
    Company("quesera-manchega-del-zancara", "Quesera Manchega del Záncara"),
    Company("agropecuaria-del-jucar", "Agropecuaria del Júcar, S. Coop."),
    Company("cereales-del-campo-de-montiel", "Cereales del Campo de Montiel"),
    # Viajes Costaverde
    Company("viajes-costaverde", "Viajes Costaverde"),
    Company("costa-dorada-viajes", "Costa Dorada Viajes"),
    Company("verdemar-turismo-activo", "Verdemar Turismo Activo"),
    Company("inmobiliaria-costa-norte", "Inmobiliaria Costa Norte"),
    # Costacálida
    Company("inmobiliaria-costacalida", "Inmobiliaria Costacálida, S.L."),
    Company("costa-calida-buceo", "Costa Cálida Buceo"),
    # Panadería Gómez
    Company("panaderia-gomez-hnos", "Panadería Gómez Hnos."),
    Company("fontaneria-hermanos-gomez", "Fontanería Hermanos Gómez"),
    Company("panaderia-la-espiga-dorada", "Panadería La Espiga Dorada"),
    Company("confiteria-gomez-arroyo", "Confitería Gómez Arroyo"),
    # Hermanos Segura
    Company("transportes-hermanos-segura", "Transportes Hermanos Segura, S.A."),
    Company("segura-logistica-integral", "Segura Logística Integral"),
    Company("transportes-del-rio-segura", "Transportes del Río Segura"),
    Company("mudanzas-hermanos-serrano", "Mudanzas Hermanos Serrano"),
    # Cía. Naviera del Estrecho
    Company("cia-naviera-del-estrecho", "Cía. Naviera del Estrecho, S.A."),
    Company("naviera-balear-de-cabotaje", "Naviera Balear de Cabotaje, S.L."),
    Company("logistica-del-estrecho", "Logística del Estrecho"),
    Company(
        "compania-de-practicos-del-puerto-de-tarifa", "Compañía de Prácticos del Puerto de Tarifa"
    ),
    # Compañía Aceitera Jiennense
    Company("compania-aceitera-jiennense", "Compañía Aceitera Jiennense, S.A."),
    Company("aceites-sierra-magina", "Aceites Sierra Mágina, S. Coop. And."),
    Company("cooperativa-jiennense-del-olivar", "Cooperativa Jiennense del Olivar"),
    Company("cia-oleicola-cordobesa", "Cía. Oleícola Cordobesa"),
    # Valle del Tiétar
    Company("sociedad-cooperativa-valle-del-tietar", "Sociedad Cooperativa Valle del Tiétar"),
    Company("soc-de-cazadores-del-tietar", "Soc. de Cazadores del Tiétar"),
    Company("turismo-valle-del-tietar", "Turismo Valle del Tiétar"),
    # Gure Txoko
    Company("sociedad-gastronomica-gure-txoko", "Sociedad Gastronómica Gure Txoko"),
    Company("gure-etxea-jatetxea", "Gure Etxea Jatetxea"),
    Company("txoko-berri-taberna", "Txoko Berri Taberna"),
    # Herederos
    Company("hdros-de-manuel-calvo", "Hdros. de Manuel Calvo, S.L."),
    Company("calvo-y-munoz-asesores", "Calvo y Muñoz Asesores"),
    Company("manuel-calvo-fotografo", "Manuel Calvo Fotógrafo"),
    Company("herederos-de-anselmo-ruiz", "Herederos de Anselmo Ruiz, S.A."),
    Company("distribuciones-anselmo-ortega", "Distribuciones Anselmo Ortega"),
    # Ayuntamientos
    Company(
        "ayuntamiento-de-valdelaguna-del-sil",
        "Ayuntamiento de Valdelaguna del Sil",
        ("Concello de Valdelaguna do Sil",),
    ),
    Company("ayto-de-villaseca-de-arriba", "Ayto. de Villaseca de Arriba"),
    Company("ayuntamiento-de-villaseca-de-abajo", "Ayuntamiento de Villaseca de Abajo"),
    Company("turismo-rural-valdelaguna", "Turismo Rural Valdelaguna"),
    # Fundaciones
    Company("fund-amparo-lizarraga", "Fund. Amparo Lizarraga"),
    Company("fundacion-arte-contemporaneo-lizarraga", "Fundación Arte Contemporáneo Lizarraga"),
    Company("residencia-amparo-de-mayores", "Residencia Amparo de Mayores"),
    Company(
        "fundacion-desarrollo-rural-sierra-de-albarracin",
        "Fundación Desarrollo Rural Sierra de Albarracín",
    ),
    # Universidades
    Company(
        "universidad-privada-del-atlantico-europeo",
        "Universidad Privada del Atlántico Europeo",
        ("UPAE",),
    ),
    Company("univ-popular-de-benavente", "Univ. Popular de Benavente"),
    Company("escuela-de-negocios-atlantico", "Escuela de Negocios Atlántico"),
    Company("academia-universitaria-benavente", "Academia Universitaria Benavente"),
    # Institutos
    Company("inst-oftalmologico-del-levante", "Inst. Oftalmológico del Levante"),
    Company("clinica-oftalmologica-levantina", "Clínica Oftalmológica Levantina"),
    Company("instituto-de-fisioterapia-alameda", "Instituto de Fisioterapia Alameda"),
    Company("fisio-alameda-deportiva", "Fisio Alameda Deportiva"),
    Company("ies-valle-del-arlanza", "I.E.S. Valle del Arlanza"),
    Company("colegio-valle-del-arlanza", "Colegio Valle del Arlanza"),
    Company("bodegas-arlanza-vinedos", "Bodegas Arlanza Viñedos"),
    # Santa, Santo
    Company("colegio-sta-maria-de-la-cabeza", "Colegio Sta. María de la Cabeza"),
    Company("colegio-santa-maria-del-pilar", "Colegio Santa María del Pilar"),
    Company("farmacia-sto-domingo-de-silos", "Farmacia Sto. Domingo de Silos"),
    Company("hostal-santo-domingo", "Hostal Santo Domingo"),
    Company("hospital-sta-lucia-del-campo", "Hospital Sta. Lucía del Campo"),
    Company("farmacia-santa-lucia", "Farmacia Santa Lucía"),
    Company("granja-escuela-campo-de-lucia", "Granja Escuela Campo de Lucía"),
    Company("mobles-sta-eulalia", "Mobles Sta. Eulàlia"),
    Company("farmacia-santa-eulalia", "Farmàcia Santa Eulàlia"),
    # Nuestra Señora
    Company(
        "cofradia-de-pescadores-ntra-sra-de-la-barqueta",
        "Cofradía de Pescadores Ntra. Sra. de la Barqueta",
    ),
    Company(
        "residencia-nuestra-senora-de-los-remedios",
        "Residencia Nuestra Señora de los Remedios, S.L.",
    ),
    Company("cofradia-de-pescadores-san-telmo", "Cofradía de Pescadores San Telmo"),
    Company("farmacia-los-remedios", "Farmacia Los Remedios"),
    # Doctores
    Company("clinica-dental-dr-arteaga", "Clínica Dental Dr. Arteaga"),
    Company("arteaga-ortodoncia-avanzada", "Arteaga Ortodoncia Avanzada"),
    Company("clinica-dental-sonrisa-sur", "Clínica Dental Sonrisa Sur"),
    Company("consulta-pediatrica-doctor-vilches", "Consulta Pediátrica Doctor Vilches"),
    Company("fisioterapia-vilches", "Fisioterapia Vilches"),
    # Licenciados
    Company("farmacia-ldo-ibanez", "Farmacia Ldo. Ibáñez"),
    Company("farmacia-licenciada-echevarria", "Farmacia Licenciada Echevarría"),
    Company("optica-ibanez", "Óptica Ibáñez"),
    Company("echevarria-correduria-de-seguros", "Echevarría Correduría de Seguros"),
    # Etxeberria
    Company("etxeberria-eraikuntzak", "Etxeberria Eraikuntzak, S.L."),
    Company("etxebarria-elektrizitatea", "Etxebarria Elektrizitatea"),
    Company("goierri-eraikuntzak", "Goierri Eraikuntzak, S.A."),
    Company("etxeberri-jatetxea", "Etxeberri Jatetxea"),
    # Zubiondo
    Company("zubiondo-ikastola", "Zubiondo Ikastola, S. Coop."),
    Company("zubiondo-kirol-elkartea", "Zubiondo Kirol Elkartea"),
    Company("ikastola-basoaldea", "Ikastola Basoaldea"),
    Company("zubigain-ostatua", "Zubigain Ostatua"),
    # Ibarreko
    Company("ibarreko-okindegia", "Ibarreko Okindegia"),
    Company("errotaberri-okindegia", "Errotaberri Okindegia"),
    Company("ibarrekoa-sagardotegia", "Ibarrekoa Sagardotegia"),
    Company("transportes-ibarra-hnos", "Transportes Ibarra Hnos."),
    # Aranburuena
    Company("aranburuena-sagardotegia", "Aranburuena Sagardotegia"),
    Company("aranburu-etxea-landetxea", "Aranburu Etxea Landetxea"),
    Company("zelaiena-sagardotegia", "Zelaiena Sagardotegia"),
    Company("aranbarri-kontsultoria", "Aranbarri Kontsultoria"),
    # Goikoetxea
    Company("txakolindegi-goikoetxea", "Txakolindegi Goikoetxea", ("Goikoetxea Txakolina",)),
    Company("goikoetxea-abokatuak", "Goikoetxea Abokatuak"),
    Company("txakolina-haitzbeltz", "Txakolina Haitzbeltz"),
    Company("goikolea-eraikuntzak", "Goikolea Eraikuntzak"),
    # Aitzgorri
    Company("aitzgorri-mendi-eskola", "Aitzgorri Mendi Eskola"),
    Company("aitzgorri-kirolak", "Aitzgorri Kirolak"),
    Company("mendi-eskola-urbasa", "Mendi Eskola Urbasa"),
    # Larrañaga eta Arregi
    Company("larranaga-eta-arregi-ingeniaritza", "Larrañaga eta Arregi Ingeniaritza"),
    Company("arregi-ingenieria-naval", "Arregi Ingeniería Naval, S.L."),
    Company("larranaga-kirolak", "Larrañaga Kirolak"),
    # Lertxundi
    Company("harategia-lertxundi", "Harategia Lertxundi"),
    Company("lertxundi-garraioak", "Lertxundi Garraioak, S.L."),
    Company("harategia-lekunberri", "Harategia Lekunberri"),
    # Zumaiako
    Company("zumaiako-ontziolak", "Zumaiako Ontziolak, S.A."),
    Company("ontziola-berria", "Ontziola Berria"),
    Company("zumaia-surf-eskola", "Zumaia Surf Eskola"),
    # La Canyada
    Company("forn-de-pa-la-canyada", "Forn de Pa La Canyada"),
    Company("canyada-immobiliaria", "Canyada Immobiliària"),
    Company("forn-miralles-i-fills", "Forn Miralles i Fills"),
    Company("panaderia-la-canada", "Panadería La Cañada"),
    # Calç, Dolç
    Company("calc-i-morters-del-penedes", "Calç i Morters del Penedès, S.L."),
    Company("morters-llobet", "Morters Llobet"),
    Company("arids-i-calcinats-penedes", "Àrids i Calcinats Penedès, S.A."),
    Company("dolc-carme-pastisseria", "Dolç Carme Pastisseria"),
    Company("dolcos-de-lemporda", "Dolços de l'Empordà"),
    Company("pastisseria-carme-vidal", "Pastisseria Carme Vidal"),
    # Formatges
    Company("formatgeria-cal-mestre", "Formatgeria Cal Mestre"),
    Company("formatges-del-llucanes", "Formatges del Lluçanès, S.L."),
    Company("reformes-mestre-i-bofill", "Reformes Mestre i Bofill"),
    # Vilanova
    Company("xarcuteria-vilanova-i-fills", "Xarcuteria Vilanova i Fills"),
    Company("carnisseria-vilanova", "Carnisseria Vilanova"),
    Company("embotits-vilanova-ramis", "Embotits Vilanova Ramis"),
    Company("xarxa-logistica-del-garraf", "Xarxa Logística del Garraf"),
    # Bosch i Riera
    Company("bosch-i-riera-advocats", "Bosch i Riera Advocats"),
    Company("riera-consultors", "Riera Consultors"),
    Company("advocats-bosch-associats", "Advocats Bosch Associats"),
    # Pla i Sastre
    Company("consultoria-pla-i-sastre", "Consultoria Pla i Sastre, S.L.P."),
    Company("sastreria-pla", "Sastreria Pla"),
    Company("pla-assessors-fiscals", "Pla Assessors Fiscals"),
    # L'Obrador, D'Aiguaviva
    Company("lobrador-de-la-merce", "L'Obrador de la Mercè"),
    Company("obrador-merce-puig", "Obrador Mercè Puig"),
    Company("floristeria-la-merce", "Floristeria La Mercè"),
    Company("daiguaviva-cosmetica-natural", "D'Aiguaviva Cosmètica Natural"),
    Company("aiguaviva-aigues-minerals", "Aiguaviva Aigües Minerals, S.A."),
    Company("cosmetica-natural-del-montseny", "Cosmètica Natural del Montseny"),
    # Mas d'en Roig
    Company("celler-mas-den-roig", "Celler Mas d'en Roig"),
    Company("mas-roig-turisme-rural", "Mas Roig Turisme Rural"),
    Company("mas-den-ros-cases-rurals", "Mas d'en Ros Cases Rurals"),
    # Ca l'Anton
    Company("fleca-i-pastisseria-ca-lanton", "Fleca i Pastisseria Ca l'Anton"),
    Company("reformes-anton", "Reformes Antón"),
    Company("fleca-sant-antoni", "Fleca Sant Antoni"),
    # L'Eixample Verd
    Company("cooperativa-dhabitatges-leixample-verd", "Cooperativa d'Habitatges L'Eixample Verd"),
    Company("jardineria-verd-eixample", "Jardineria Verd Eixample"),
    # Celler Cooperatiu
    Company("celler-cooperatiu-de-vilafosca", "Celler Cooperatiu de Vilafosca, S.C.C.L."),
    Company("olis-vilafosca", "Olis Vilafosca"),
    Company("celler-cooperatiu-de-puigverd-alt", "Celler Cooperatiu de Puigverd Alt"),
    # Tèxtil Llorens
    Company("textil-llorens-i-cia", "Tèxtil Llorens i Cia., S.A."),
    Company("llorens-arquitectes-associats", "Llorens Arquitectes Associats"),
    Company("textiles-llorente", "Textiles Llorente"),
    # Carreiro
    Company("conservas-carreiro-e-fillos", "Conservas Carreiro e Fillos, S.L."),
    Company("transportes-carreira", "Transportes Carreira"),
    Company("conservas-do-mar-de-arousa", "Conservas do Mar de Arousa, S.A."),
    Company("fillos-de-xose-pereiro", "Fillos de Xosé Pereiro"),
    # Casiña
    Company("cafetaria-casina-do-porto", "Cafetaría Casiña do Porto"),
    Company("a-casina-rural-de-lalin", "A Casiña Rural de Lalín"),
    Company("casinas-do-val-apartamentos", "Casiñas do Val Apartamentos"),
    Company("mariscos-lonxa-do-porto", "Mariscos Lonxa do Porto"),
    # Carballos
    Company("adegas-val-dos-carballos", "Adegas Val dos Carballos, S.L."),
    Company("madeiras-carballo-e-fillos", "Madeiras Carballo e Fillos"),
    Company("adegas-do-val-de-monterrei", "Adegas do Val de Monterrei"),
    # Granxa
    Company("granxa-leiteira-ameixeiral", "Granxa Leiteira Ameixeiral"),
    Company("viveiros-ameixeiras", "Viveiros Ameixeiras"),
    Company("granxa-avicola-do-ribeiro", "Granxa Avícola do Ribeiro"),
    Company("leiteira-do-xallas", "Leiteira do Xallas, S. Coop. Galega"),
    # Ferreiro e Castro
    Company("ferreiro-e-castro-avogados", "Ferreiro e Castro Avogados"),
    Company("castro-asesoria-laboral", "Castro Asesoría Laboral"),
    Company("avogados-do-morrazo", "Avogados do Morrazo"),
    Company("forxa-artesa-ferreiro", "Forxa Artesá Ferreiro"),
    # Rey & Bouza
    Company("rey-bouza-avogados", "Rey & Bouza Avogados"),
    Company("bouza-asesores-contables", "Bouza Asesores Contables"),
    Company("notaria-rey-pazos", "Notaría Rey Pazos"),
    # Pazos
    Company("hotel-pazo-da-ria", "Hotel Pazo da Ría"),
    Company("pazo-do-rio-eventos", "Pazo do Río Eventos"),
    Company("mariscos-ria-de-noia", "Mariscos Ría de Noia"),
    # Pereiriña
    Company("talleres-pereirina", "Talleres Pereiriña, S.L."),
    Company("seguros-pereira-e-vidal", "Seguros Pereira e Vidal"),
    Company("talleres-pereda", "Talleres Pereda, SL"),
    # Mobles Casal
    Company("mobles-casal-e-fillos", "Mobles Casal e Fillos, S.L."),
    Company("peixeria-casal", "Peixería Casal"),
    Company("mobles-ribeira-sacra", "Mobles Ribeira Sacra"),
    # Forno
    Company("panadaria-forno-da-aldea", "Panadaría Forno da Aldea"),
    Company("forno-de-lena-o-carballino", "Forno de Leña O Carballiño"),
    Company("turismo-rural-a-aldea-vella", "Turismo Rural A Aldea Vella"),
    # Los Almendros
    Company("clinica-veterinaria-los-almendros", "Clínica Veterinaria Los Almendros"),
    Company("clinica-dental-los-almendros", "Clínica Dental Los Almendros"),
    Company("residencial-los-almendros", "Residencial Los Almendros, S.L."),
    Company("veterinaria-almendralejo", "Veterinaria Almendralejo"),
    # Mirasierra
    Company("hotel-mirasierra-de-cazorla", "Hotel Mirasierra de Cazorla"),
    Company("gran-hotel-mirasierra", "Gran Hotel Mirasierra"),
    Company("hostal-cazorla-centro", "Hostal Cazorla Centro"),
    Company("apartamentos-miravalle", "Apartamentos Miravalle"),
    # Gaviotas
    Company("hotel-las-gaviotas", "Hotel Las Gaviotas"),
    Company("hostal-la-gaviota", "Hostal La Gaviota"),
    Company("gaviota-yates", "Gaviota Yates, S.L."),
    # Vizcaíno
    Company("panaderia-hermanos-vizcaino", "Panadería Hermanos Vizcaíno"),
    Company("vizcaino-reformas", "Vizcaíno Reformas"),
    Company("panificadora-vizcaina", "Panificadora Vizcaína, S.A."),
    Company("carnicas-hermanos-vizcarra", "Cárnicas Hermanos Vizcarra"),
    # Bernal
    Company("transportes-frigorificos-bernal", "Transportes Frigoríficos Bernal, S.A."),
    Company("gruas-bernal", "Grúas Bernal"),
    Company("frigorificos-del-guadalquivir", "Frigoríficos del Guadalquivir, S.L."),
    Company("transportes-bermejo", "Transportes Bermejo"),
    # López-Cuervo
    Company("transportes-lopez-cuervo", "Transportes López-Cuervo, S.A."),
    Company("mudanzas-el-cuervo", "Mudanzas El Cuervo"),
    Company("transportes-urgentes-lopez", "Transportes Urgentes López"),
    # T.R.A.S.A.
    Company("trasa", "T.R.A.S.A. Transportes Rápidos Aragoneses, S.A.", ("TRASA",)),
    Company("transportes-rapidos-del-moncayo", "Transportes Rápidos del Moncayo"),
    # Zubizarreta
    Company("construcciones-metalicas-zubizarreta", "Construcciones Metálicas Zubizarreta, S.L."),
    Company("zubizarreta-abogados", "Zubizarreta Abogados"),
    Company("construcciones-metalicas-del-sur", "Construcciones Metálicas del Sur, S.A."),
    Company("zubiri-estructuras", "Zubiri Estructuras"),
    # Viña Candela
    Company("bodegas-vina-candela", "Bodegas Viña Candela"),
    Company("candela-iluminacion", "Candela Iluminación"),
    Company("bodegas-vina-carmela", "Bodegas Viña Carmela"),
    Company("vinas-candelario", "Viñas Candelario, S.L."),
    # Lacalle
    Company("bodegas-hnos-lacalle", "Bodegas Hnos. Lacalle, S.A."),
    Company("lacalle-asesores-agricolas", "Lacalle Asesores Agrícolas"),
    Company("bodegas-calleja", "Bodegas Calleja"),
    # Tostadero
    Company("cafes-el-tostadero-madrileno", "Cafés El Tostadero Madrileño, S.L."),
    Company("tostadero-de-frutos-secos-la-alcarria", "Tostadero de Frutos Secos La Alcarria"),
    Company("cafeteria-la-madrilena", "Cafetería La Madrileña"),
    Company("cafes-montana-negra", "Cafés Montaña Negra"),
    # Seguros
    Company("seguros-la-previsora-astur", "Seguros La Previsora Astur, S.A."),
    Company("prevision-mutua-asturiana", "Previsión Mutua Asturiana"),
    Company("astur-correduria-de-seguros", "Astur Correduría de Seguros, S.L."),
    Company("seguros-la-providencia", "Seguros La Providencia, S.A."),
    Company("mutua-iberica-de-accidentes-de-trabajo", "Mutua Ibérica de Accidentes de Trabajo"),
    # Ibérica de Envases
    Company("iberica-de-envases", "Ibérica de Envases, S.L."),
    Company("cementos-iberica-del-norte", "Cementos Ibérica del Norte, S.A."),
    Company("envases-metalicos-levante", "Envases Metálicos Levante"),
    Company("iberenvas-reciclaje", "Iberenvás Reciclaje"),
    # Banca Arrieta
    Company("banca-privada-arrieta", "Banca Privada Arrieta, S.A."),
    Company("arrieta-seguros-generales", "Arrieta Seguros Generales"),
    Company("banca-privada-del-bidasoa", "Banca Privada del Bidasoa, S.A."),
    Company("arrieta-y-lasa-inversiones", "Arrieta y Lasa Inversiones"),
    # Olivareras
    Company("olivarera-virgen-de-la-estrella", "Olivarera Virgen de la Estrella, S. Coop. And."),
    Company("aceites-estrella-del-sur", "Aceites Estrella del Sur"),
    Company("olivarera-del-genil", "Olivarera del Genil, Soc. Coop."),
    Company("peregrinaciones-virgen-de-la-estrella", "Peregrinaciones Virgen de la Estrella"),
    # Talleres Gallardo
    Company("talleres-gallardo-e-hijos", "Talleres Gallardo e Hijos, S.L."),
    Company("neumaticos-gallardo", "Neumáticos Gallardo"),
    Company("talleres-hijos-de-pedro-gil", "Talleres Hijos de Pedro Gil"),
    Company("gallarta-motor", "Gallarta Motor, S.A."),
    # One-word names
    Company("vitralia", "Vitralia"),
    Company("vitrales-artisticos-moreno", "Vitrales Artísticos Moreno"),
    Company("vitrinas-alcala", "Vitrinas Alcalá, S.L."),
    Company("ferralia", "Ferralia"),
    Company("ferrallas-del-ebro", "Ferrallas del Ebro, S.L."),
    Company("ferreteria-alia-e-hijos", "Ferretería Alía e Hijos"),
    Company("aldabia", "Aldabia"),
    Company("cerrajeros-la-aldaba", "Cerrajeros La Aldaba"),
    Company("tecnovent", "Tecnovent, S.L."),
    Company("tecnoventilacion-del-norte", "Tecnoventilación del Norte"),
    Company("olivarium", "Olivarium"),
    Company("olivar-del-rincon", "Olivar del Rincón"),
    # Valdefuentes
    Company("cd-atletico-valdefuentes", "C.D. Atlético Valdefuentes"),
    Company("valdefuentes-motor", "Valdefuentes Motor"),
    Company("club-deportivo-fuentesol", "Club Deportivo Fuentesol"),
    Company("ud-los-pinares", "U.D. Los Pinares"),
    Company("residencial-los-pinares", "Residencial Los Pinares"),
    Company("maderas-pinares-del-duero", "Maderas Pinares del Duero"),
    # Campo de Níjar
    Company("sat-hortofruticola-campo-de-nijar", "S.A.T. Hortofrutícola Campo de Níjar"),
    Company("hortofruticola-del-poniente", "Hortofrutícola del Poniente, S.L."),
    Company("invernaderos-nijar-sur", "Invernaderos Níjar Sur"),
    # Martínez, Soler
    Company("martinez-soler-y-asociados", "Martínez, Soler y Asociados, S.L.P."),
    Company("soler-marti-asociados", "Soler Martí Asociados"),
    Company("martinez-solera-arquitectos", "Martínez Solera Arquitectos"),
    # Autoescuelas
    Company("autoescuela-guadarrama", "Autoescuela Guadarrama"),
    Company("auto-escuela-la-sierra", "Auto Escuela La Sierra"),
    Company("neumaticos-guadarrama", "Neumáticos Guadarrama"),
    # Electro Hogar
    Company("electro-hogar-pons", "Electro Hogar Pons"),
    Company("lampisteria-pons-i-fills", "Lampisteria Pons i Fills"),
    Company("electrodomesticos-hogar-sur", "Electrodomésticos Hogar Sur"),
    # Bio
    Company("bio-natura-cosmetica", "Bio Natura Cosmética"),
    Company("biologica-montes", "Biológica Montes"),
    Company("naturalia-alimentacion-ecologica", "Naturalia Alimentación Ecológica"),
    # Multiservicios
    Company("multi-servicios-ribera", "Multi Servicios Ribera, S.L."),
    Company("multiservicios-el-pinar", "Multiservicios El Pinar"),
    Company("limpiezas-ribera", "Limpiezas Ribera"),
    Company("eco-limpiezas-turia", "Eco Limpiezas Turia, S.L."),
    Company("limpiezas-turia-express", "Limpiezas Turia Express"),
    # Vistas
    Company("residencia-bellavista", "Residencia Bellavista"),
    Company("optica-bellavista", "Óptica Bellavista"),
    Company("inmobiliaria-buenavista", "Inmobiliaria Buenavista"),
    Company("eventos-vistalegre", "Eventos Vistalegre"),
    Company("clinica-montealto", "Clínica Montealto"),
    Company("montealto-golf", "Montealto Golf"),
    # Fotoestudio, Radio Taxi
    Company("fotoestudio-alba", "Fotoestudio Alba"),
    Company("estudio-alba-arquitectura", "Estudio Alba Arquitectura"),
    Company("radio-taxi-valdemar", "Radio Taxi Valdemar"),
    Company("autocares-valdemar", "Autocares Valdemar"),
    # Peña-Blanca
    Company("embutidos-pena-blanca", "Embutidos Peña-Blanca, S.L."),
    Company("hostal-penablanca", "Hostal Peñablanca"),
    Company("embutidos-casa-penalver", "Embutidos Casa Peñalver"),
    # Navarro-Saldaña
    Company("asesoria-navarro-saldana", "Asesoría Navarro-Saldaña"),
    Company("reformas-navarro-e-hijos", "Reformas Navarro e Hijos"),
    Company("inmobiliaria-saldana", "Inmobiliaria Saldaña"),
    # Peñuelas
    Company("gestoria-administrativa-penuelas", "Gestoría Administrativa Peñuelas"),
    Company("penuelas-abogados", "Peñuelas Abogados, S.L.P."),
    Company("gestoria-penalosa", "Gestoría Peñalosa"),
    # García & Lorente
    Company("distribuciones-garcia-lorente", "Distribuciones García & Lorente, S.L."),
    Company("electricidad-lorente", "Electricidad Lorente"),
    Company("libreria-garcia-lozano", "Librería García Lozano"),
    # O'Donnell
    Company("ferreteria-odonnell", "Ferretería O'Donnell"),
    Company("donell-consulting", "Donell Consulting"),
    Company("ferreteria-industrial-dos-hermanas", "Ferretería Industrial Dos Hermanas"),
    # Casa Ramiro
    Company("restaurante-casa-ramiro", "Restaurante Casa Ramiro"),
    Company("asador-el-ramiro", "Asador El Ramiro"),
    Company("casa-ramirez-tapas", "Casa Ramírez Tapas"),
    # Vallejo
    Company("supermercados-vallejo", "Supermercados Vallejo, S.A."),
    Company("gasolineras-vallejo", "Gasolineras Vallejo"),
    Company("vallejo-ortiz-ingenieros", "Vallejo Ortiz Ingenieros"),
    # La Despensa
    Company("supermercados-la-despensa-familiar", "Supermercados La Despensa Familiar, S.A."),
    Company("la-despensa-gourmet", "La Despensa Gourmet"),
    Company("hipermercados-familiares-del-sur", "Hipermercados Familiares del Sur"),
    # Pluma de Oro
    Company("papeleria-la-pluma-de-oro", "Papelería La Pluma de Oro"),
    Company("plumas-y-estilograficas-oroz", "Plumas y Estilográficas Oroz"),
    # Alcántara
    Company("excavaciones-hnos-alcantara", "Excavaciones Hnos. Alcántara"),
    Company("gruas-alcantara", "Grúas Alcántara"),
    Company("excavaciones-alcaraz", "Excavaciones Alcaraz, S.L."),
    # Quesada
    Company("aluminios-hermanos-quesada", "Aluminios Hermanos Quesada, S.L."),
    Company("cristaleria-quesada", "Cristalería Quesada"),
    Company("aluminios-del-guadiana", "Aluminios del Guadiana"),
    # La Perla
    Company("tintoreria-la-perla", "Tintorería La Perla"),
    Company("lavanderia-perla-azul", "Lavandería Perla Azul"),
    Company("joyeria-la-perla-del-sur", "Joyería La Perla del Sur"),
    # Moya
    Company("hijos-de-rafael-moya", "Hijos de Rafael Moya, S.A."),
    Company("textil-moya", "Textil Moya"),
    Company("rafael-moyano-abogado", "Rafael Moyano Abogado"),
    # Iturbe
    Company("vda-de-ramon-iturbe", "Vda. de Ramón Iturbe, S.A."),
    Company("imprenta-iturbe", "Imprenta Iturbe"),
    Company("ramon-iturralde-asesores", "Ramón Iturralde Asesores"),
    # Arenales
    Company("grupo-empresarial-arenales", "Grupo Empresarial Arenales, S.A."),
    Company("arenales-golf", "Arenales Golf"),
    Company("grupo-arenal-moda", "Grupo Arenal Moda"),
    # Sobrinos & Cía.
    Company("sobrinos-de-lucas-albendea-y-cia", "Sobrinos de Lucas Albendea & Cía., S.R.C."),
    Company("albendea-arquitectura", "Albendea Arquitectura"),
    Company("mudanzas-lucas-y-cia", "Mudanzas Lucas y Cía."),
    # Babelia
    Company("academia-de-idiomas-babelia", "Academia de Idiomas Babelia"),
    Company("babel-traducciones", "Babel Traducciones, S.L."),
    Company("libreria-babelia", "Librería Babelia"),
    # Laboratorios
    Company(
        "laboratorios-farmaceuticos-quiros", "Laboratorios Farmacéuticos Quirós, S.A.", ("LFQ",)
    ),
    Company("quiros-dermocosmetica", "Quirós Dermocosmética"),
    Company("laboratorios-del-cantabrico", "Laboratorios del Cantábrico, S.L."),
    Company("farmaceutica-quiroga", "Farmacéutica Quiroga"),
    # Montañesa
    Company("electrica-montanesa-de-distribucion", "Eléctrica Montañesa de Distribución, S.A.U."),
    Company("montanesa-de-gas", "Montañesa de Gas, S.A."),
    Company("distribuciones-electricas-montana-alta", "Distribuciones Eléctricas Montaña Alta"),
    # Ondaverde
    Company("telecomunicaciones-ondaverde", "Telecomunicaciones Ondaverde, S.L."),
    Company("radio-onda-verde-comarcal", "Radio Onda Verde Comarcal"),
    Company("onda-sur-telecom", "Onda Sur Telecom"),
    # Alisios
    Company("lineas-aereas-alisios", "Líneas Aéreas Alisios, S.A.", ("Alisios Air",)),
    Company("escuela-de-surf-alisios", "Escuela de Surf Alisios"),
    Company("carga-aerea-atlantica", "Carga Aérea Atlántica, S.L."),
    # Urbión
    Company("automoviles-urbion", "Automóviles Urbión, S.A.", ("Urbión Motor",)),
    Company("bicicletas-urbion", "Bicicletas Urbión"),
    Company("automoviles-urbano-garcia", "Automóviles Urbano García"),
    # Nexora
    Company("servicios-informaticos-nexora", "Servicios Informáticos Nexora, S.L.U."),
    Company("nexora-digital", "Nexora Digital"),
    Company("informatica-nexo", "Informática Nexo"),
    # Pisuerga
    Company("harinera-del-pisuerga", "Harinera del Pisuerga SA"),
    Company("piensos-pisuerga", "Piensos Pisuerga, S.L."),
    Company("harinas-del-carrion", "Harinas del Carrión"),
    # Reunidos
    Company("grafitos-reunidos", "Grafitos Reunidos, SL"),
    Company("fabricantes-reunidos-del-ter", "Fabricantes Reunidos del Ter, S.A."),
    Company("graficas-reunidas-aragonesas", "Gráficas Reunidas Aragonesas"),
    Company("graficas-aitana", "Gráficas Aitana, Sociedad Limitada"),
    Company("aitana-eventos-y-catering", "Aitana Eventos y Catering"),
    # Talaverana
    Company("ceramica-artistica-talaverana", "Cerámica Artística Talaverana, S.L.L."),
    Company("talaverana-de-azulejos", "Talaverana de Azulejos, S.A."),
    Company("ceramicas-del-tajo", "Cerámicas del Tajo"),
    # Peluquerías
    Company("peluqueria-unisex-marta-y-ana", "Peluquería Unisex Marta y Ana, C.B."),
    Company("estetica-marta-ribas", "Estética Marta Ribas"),
    Company("peluqueria-ana-belen", "Peluquería Ana Belén"),
    # Puerto Seco
    Company("agrupacion-logistica-puerto-seco", "Agrupación Logística Puerto Seco, A.I.E."),
    Company("terminal-puerto-seco-sur", "Terminal Puerto Seco Sur"),
    # Azucareras
    Company("azucarera-leonesa", "Azucarera Leonesa, Sociedad Anónima"),
    Company("dulces-la-leonesa", "Dulces La Leonesa"),
    Company("azucarera-del-esla", "Azucarera del Esla, S.A."),
    # Industrias
    Company("ind-quimicas-del-besos", "Ind. Químicas del Besòs, S.A."),
    Company("pintures-besos", "Pintures Besòs"),
    Company("industrias-del-besaya", "Industrias del Besaya, S.L."),
    # Asociaciones
    Company("asoc-de-comerciantes-del-casco-viejo", "Asoc. de Comerciantes del Casco Viejo"),
    Company("hostal-casco-viejo", "Hostal Casco Viejo"),
    Company("asociacion-cultural-casco-viejo", "Asociación Cultural Casco Viejo"),
)
